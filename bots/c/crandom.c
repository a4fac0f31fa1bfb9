/* crandom: the smallest useful Zole bot in C (protocol v1, see protocol/README.md).
 *
 * It answers every `go` with a random item of `legal` (two different ones while burying) and
 * keeps no state. Small on purpose: it is the fastest bundled bot, the one the arena's
 * throughput benchmarks run, and a starting point for a bot in C.
 *
 * Build: cc -std=c99 -O2 -o crandom crandom.c      Run: ./crandom [--seed N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXLINE 65536
#define MAXITEMS 64

static unsigned long long rng_state;

static unsigned long long next_random(void)
{
    /* xorshift64*: plenty for picking among at most 45 items */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static void say(const char *line)
{
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

/* Answers one go line: finds id, phase and legal among the key/value tokens. */
static void answer(char *line)
{
    char *id = NULL, *phase = NULL, *legal = NULL, *items[MAXITEMS];
    char *key = strtok(line + 2, " \t\r\n");
    int n = 0;
    while (key != NULL) {
        char *value = strtok(NULL, " \t\r\n");
        if (value == NULL) break;
        if (strcmp(key, "id") == 0) id = value;
        else if (strcmp(key, "phase") == 0) phase = value;
        else if (strcmp(key, "legal") == 0) legal = value;
        key = strtok(NULL, " \t\r\n");
    }
    if (id == NULL || legal == NULL || strcmp(legal, "-") == 0) return;
    for (char *item = strtok(legal, ","); item != NULL && n < MAXITEMS; item = strtok(NULL, ","))
        items[n++] = item;
    if (n == 0) return;
    if (phase != NULL && strcmp(phase, "bury") == 0 && n >= 2) {
        int a = (int)(next_random() % (unsigned)n);
        int b = (int)(next_random() % (unsigned)(n - 1));
        if (b >= a) b++;
        printf("action %s %s %s\n", id, items[a], items[b]);
    } else {
        printf("action %s %s\n", id, items[next_random() % (unsigned)n]);
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    static char line[MAXLINE + 2];
    rng_state = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
    if (argc == 3 && strcmp(argv[1], "--seed") == 0) rng_state = strtoull(argv[2], NULL, 10);
    if (rng_state == 0) rng_state = 88172645463325252ULL;
    while (fgets(line, sizeof line, stdin) != NULL) {
        if (strchr(line, '\n') == NULL && !feof(stdin)) { /* too long: skip the rest */
            int c;
            while ((c = getchar()) != EOF && c != '\n') {}
            continue;
        }
        if (strncmp(line, "go ", 3) == 0) answer(line);
        else if (strncmp(line, "isready", 7) == 0) say("readyok");
        else if (strncmp(line, "zole", 4) == 0 && (line[4] == ' ' || line[4] == '\n'))
            say("id name CRandom\nid author zole-arena\nid version 1\nzoleok 1");
        else if (strncmp(line, "quit", 4) == 0) break;
    }
    return 0;
}
