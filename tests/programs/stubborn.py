"""A test bot that will not end by itself: it starts a child that sleeps, answers WAIT twice, writes its pid
and its child's to a file, then sleeps forever, deaf to end of input and to SIGTERM, SIGINT and SIGHUP.

usage: stubborn.py PIDFILE
"""
import os
import signal
import subprocess
import sys
import time

for deaf in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(deaf, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])

for _ in range(int(input())):
    input()
for turn in range(2):
    for _ in range(4):
        input()
    for _ in range(int(input())):
        input()
    for _ in range(int(input())):
        input()
    print("WAIT", flush=True)
with open(sys.argv[1] + ".tmp", "w") as handle:
    handle.write(f"{os.getpid()} {child.pid}\n")
os.replace(sys.argv[1] + ".tmp", sys.argv[1])
while True:
    time.sleep(1)
