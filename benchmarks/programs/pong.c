/* The other end of a pipe round trip: one short line back for every block of input that ends a line.
   Exits at end of input. Measures the OS's cost of the referee's traffic, without any protocol work. */
#include <unistd.h>

int main(void) {
    static char buffer[1 << 16];
    ssize_t n;
    while ((n = read(0, buffer, sizeof buffer)) > 0)
        if (buffer[n - 1] == '\n' && write(1, "WAIT\n", 5) != 5) return 1;
    return 0;
}
