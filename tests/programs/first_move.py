"""A minimal CodinGame bot: reads the protocol and plays the last possible move it is given."""

cells = int(input())
for _ in range(cells):
    input()
while True:
    try:
        day = int(input())
    except EOFError:
        break
    input(); input(); input()
    for _ in range(int(input())):
        input()
    moves = [input() for _ in range(int(input()))]
    print(moves[-1], flush=True)
