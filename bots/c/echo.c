/* The minimal line echo program for zole-arena's protocol benchmark: it reads lines on stdin
 * and writes each back at once. It is the raw pipe round trip that a decision through the
 * arena is measured against (zole-arena bench --protocol). */
#include <stdio.h>
#include <string.h>

int main(void) {
    static char line[70000];
    while (fgets(line, sizeof line, stdin) != NULL) {
        if (strncmp(line, "quit", 4) == 0) break;
        fputs(line, stdout);
        fflush(stdout);
    }
    return 0;
}
