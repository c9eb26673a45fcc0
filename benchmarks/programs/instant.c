/* A bot that answers at once: the referee's cost is what is left when the players cost nothing.

   usage: instant [last|wait]
     last   play the last of the possible moves (the default): a legal move, random within its group since the
            referee shuffles each group; the list ends with the seeds, then the grows, the completes, WAIT
     wait   always WAIT (the list's first move)
   Exits at end of input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char line[1 << 16];

static int read_line(void) { return fgets(line, sizeof line, stdin) != NULL; }

static int read_count(void) { return read_line() ? atoi(line) : -1; }

int main(int argc, char **argv) {
    int wait = argc > 1 && strcmp(argv[1], "wait") == 0;
    char move[256];
    int cells = read_count();
    if (cells < 0) return 0;
    for (int i = 0; i < cells; i++)
        if (!read_line()) return 0;
    for (;;) {
        for (int i = 0; i < 4; i++) /* day, nutrients, my sun and score, the opponent's sun, score, waiting */
            if (!read_line()) return 0;
        int trees = read_count();
        if (trees < 0) return 0;
        for (int i = 0; i < trees; i++)
            if (!read_line()) return 0;
        int moves = read_count();
        if (moves < 0) return 0;
        strcpy(move, "WAIT\n");
        for (int i = 0; i < moves; i++) {
            if (!read_line()) return 0;
            if (i == moves - 1 && !wait) {
                strncpy(move, line, sizeof move - 1);
                move[sizeof move - 1] = 0;
            }
        }
        fputs(move, stdout);
        fflush(stdout);
    }
}
