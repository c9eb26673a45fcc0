"""A test bot that plays the first possible move, and misbehaves on purpose when told to.

usage: behave.py [MODE [TURN]]   MODE is one of
  play        play normally (the default)
  hang        stop answering from answer TURN on (sleeps forever)
  exit        exit with code 3 before answer TURN
  garbage     answer 'JUMP 3' at answer TURN
  illegal     answer 'COMPLETE 36' at answer TURN (well-formed, usually illegal)
  silent      never print anything
  bigline     answer a 1 MB line of garbage at answer TURN
  crash       raise an exception at answer TURN (traceback on stderr, exit code 1)
  flood       write 200 KB to stderr before every answer
  chatty      print two lines per answer (the second is read as the next answer)
  slowstart   sleep 0.5 s before the first answer
  spawn       start a child process that sleeps for a minute, then play
  segv        kill itself with SIGSEGV at answer TURN
  closeout    close its output at answer TURN, then sleep
  closein     close its input, give answer TURN, then sleep
"""
import os
import signal
import subprocess
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "play"
turn_arg = int(sys.argv[2]) if len(sys.argv) > 2 else 1

child = ""
if mode == "spawn":
    child = f" child {subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']).pid}"

for _ in range(int(input())):
    input()
answers = 0
while True:
    try:
        input()
    except EOFError:
        sys.exit(0)
    input(); input(); input()
    for _ in range(int(input())):
        input()
    moves = [input() for _ in range(int(input()))]
    answers += 1
    cores = ",".join(map(str, sorted(os.sched_getaffinity(0))))
    print(f"answer {answers} pid {os.getpid()}{child} cores {cores}", file=sys.stderr, flush=True)
    if mode == "silent":
        continue
    if mode == "flood":
        sys.stderr.write("x" * 200_000 + "\n")
        sys.stderr.flush()
    if mode == "slowstart" and answers == 1:
        time.sleep(0.5)
    if answers >= turn_arg:
        if mode == "hang":
            time.sleep(3600)
        if mode == "exit":
            sys.exit(3)
        if mode == "garbage" and answers == turn_arg:
            print("JUMP 3", flush=True)
            continue
        if mode == "illegal" and answers == turn_arg:
            print("COMPLETE 36 oops", flush=True)
            continue
        if mode == "bigline" and answers == turn_arg:
            print("y" * 1_000_000, flush=True)
            continue
        if mode == "crash":
            raise RuntimeError("the bot crashed on purpose")
        if mode == "segv":
            os.kill(os.getpid(), signal.SIGSEGV)
        if mode == "closeout":
            os.close(1)
            time.sleep(3600)
        if mode == "closein":
            os.close(0)  # before the answer: the referee's next write finds it closed
            print(moves[0], flush=True)
            time.sleep(3600)
    print(moves[0] if mode != "chatty" else "WAIT\nWAIT", flush=True)
