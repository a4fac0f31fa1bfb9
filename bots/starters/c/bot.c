/*
 * starter-c: a small Zole bot for zole-arena, in one C file, standard library only.
 *
 * Build: cc -O2 -Wall -Wextra -o bot bot.c      Run: ./bot
 *
 * It speaks protocol v1 (protocol/README.md): it keeps the deal's state from the
 * messages (newdeal, bid, card, trick) and answers each `go` with one of its `legal`
 * answers. The decisions are in decide_bid(), decide_bury(), lead() and follow().
 * Debugging goes to stderr only: stdout is the protocol.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Cards: an int, suit * 8 + rank index ---------------------------------- */

static const char RANKS[] = "ATKQJ987";
static const char SUITS[] = "CSHD";
/* Trumps, strongest first. */
static const char *TRUMPS[] = {"QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD",
                               "AD", "TD", "KD", "9D", "8D", "7D"};
#define NCARDS 32      /* room for every rank of every suit */
#define TRUMP_SUIT 4   /* the "suit" of every trump */

static int parse_card(const char *s) {
    if (!s[0] || !s[1]) return -1;    /* (strchr would find the '\0') */
    const char *r = strchr(RANKS, s[0]), *u = strchr(SUITS, s[1]);
    if (!r || !u) return -1;
    return (int)(u - SUITS) * 8 + (int)(r - RANKS);
}

/* "QC" for a card; two buffers, so two names may appear in one printf. */
static const char *card_name(int c) {
    static char buf[2][3];
    static int k;
    k ^= 1;
    buf[k][0] = RANKS[c % 8];
    buf[k][1] = SUITS[c / 8];
    buf[k][2] = 0;
    return buf[k];
}

static int points(int c) {
    switch (RANKS[c % 8]) {
    case 'A': return 11;
    case 'T': return 10;
    case 'K': return 4;
    case 'Q': return 3;
    case 'J': return 2;
    default: return 0;
    }
}

/* Strength: 100..113 for trumps (QC highest), 0..7 for plain cards (A highest). */
static int strength(int c) {
    for (int i = 0; i < 14; i++)
        if (parse_card(TRUMPS[i]) == c) return 113 - i;
    return 7 - c % 8;
}

static int is_trump(int c) { return strength(c) >= 100; }
static int suit_of(int c) { return is_trump(c) ? TRUMP_SUIT : c / 8; }

/* Does card c beat w, the card winning the trick so far? */
static int beats(int c, int w) {
    if (is_trump(c)) return !is_trump(w) || strength(c) > strength(w);
    return !is_trump(w) && suit_of(c) == suit_of(w) && strength(c) > strength(w);
}

/* Parse a comma list ("QC,JD" or "-") into cards; returns how many. */
static int parse_list(const char *s, int *out, int max) {
    int n = 0;
    char tmp[256];
    if (!s || strcmp(s, "-") == 0) return 0;
    strncpy(tmp, s, sizeof tmp - 1);
    tmp[sizeof tmp - 1] = 0;
    for (char *t = strtok(tmp, ","); t && n < max; t = strtok(NULL, ",")) {
        int c = parse_card(t);
        if (c >= 0) out[n++] = c;
    }
    return n;
}

/* ---- The deal's state, kept from the messages ---------------------------- */

static struct {
    int seat, soloist, nbids, table;   /* table: all passed, table game */
    int hand[NCARDS], in_hand[NCARDS]; /* hand[] lists cards dealt; in_hand says if still held */
    int nhand;
    int gone[NCARDS];                  /* played by anyone, or buried by me */
    int trick_seat[3], trick_card[3], ntrick;
    int talon_taken;
} st;

static void add_to_hand(int c) {
    if (c < 0 || st.in_hand[c]) return;
    st.in_hand[c] = 1;
    st.hand[st.nhand++] = c;
}

static void new_deal(char **tok, int n) {
    memset(&st, 0, sizeof st);
    st.soloist = -1;
    for (int i = 1; i + 1 < n; i += 2) {
        if (strcmp(tok[i], "seat") == 0) st.seat = atoi(tok[i + 1]);
        if (strcmp(tok[i], "hand") == 0) {
            int cards[10], k = parse_list(tok[i + 1], cards, 10);
            for (int j = 0; j < k; j++) add_to_hand(cards[j]);
        }
    }
}

static void on_bid(int seat, const char *bid) {
    st.nbids++;
    if (strcmp(bid, "pass") != 0 && st.soloist < 0) st.soloist = seat;
    if (st.nbids == 3 && st.soloist < 0) st.table = 1;
}

static void on_card(int seat, int c) {
    if (c < 0 || st.ntrick == 3) return;
    st.gone[c] = 1;
    if (seat == st.seat) st.in_hand[c] = 0;
    st.trick_seat[st.ntrick] = seat;
    st.trick_card[st.ntrick++] = c;
}

/* ---- Helpers for choosing among the legal cards --------------------------- */

/* The index of the card winning the current trick. */
static int trick_winner(void) {
    int w = 0;
    for (int i = 1; i < st.ntrick; i++)
        if (beats(st.trick_card[i], st.trick_card[w])) w = i;
    return w;
}

static int partners(int a, int b) {
    return !st.table && a != st.soloist && b != st.soloist;
}

/* Pick from cards[] by a comparison: better(a, b) says a is preferred to b. */
static int pick(const int *cards, int n, int (*better)(int, int)) {
    int best = cards[0];
    for (int i = 1; i < n; i++)
        if (better(cards[i], best)) best = cards[i];
    return best;
}

static int weaker(int a, int b) { return strength(a) < strength(b); }
static int stronger(int a, int b) { return strength(a) > strength(b); }
static int cheaper(int a, int b) {  /* fewest points, then the weakest */
    return points(a) != points(b) ? points(a) < points(b) : weaker(a, b);
}
static int richer(int a, int b) {   /* most points, then the weakest */
    return points(a) != points(b) ? points(a) > points(b) : weaker(a, b);
}
static int richer_strong(int a, int b) { /* most points, then the strongest */
    return points(a) != points(b) ? points(a) > points(b) : stronger(a, b);
}

/* ---- Decisions: this is where an author makes the bot stronger ------------ */

/* Bid from the 8 dealt cards. Stronger: count aces and voids, weigh the seat. */
static const char *decide_bid(char *legal) {
    int t = 0, q = 0;
    for (int i = 0; i < st.nhand; i++) {
        t += is_trump(st.hand[i]);
        q += RANKS[st.hand[i] % 8] == 'Q';
    }
    int can_zole = 0, can_take = 0;
    for (char *b = strtok(legal, ","); b; b = strtok(NULL, ",")) {
        can_zole |= strcmp(b, "zole") == 0;
        can_take |= strcmp(b, "take") == 0;
    }
    if (can_zole && (t >= 7 || (t >= 6 && q >= 3))) return "zole";
    if (can_take && (t >= 6 || (t >= 5 && q >= 2))) return "take";
    return "pass";
}

/* Bury the two richest plain cards, the shorter suit first (to make a void).
 * Stronger: keep a lone ace, void a whole suit when you can. */
static void decide_bury(int *cards, int n, int out[2]) {
    int len[5] = {0}, used[10] = {0};
    for (int i = 0; i < n; i++) len[suit_of(cards[i])]++;
    for (int k = 0; k < 2; k++) {
        int b = -1;
        for (int i = 0; i < n; i++) {
            int c = cards[i];
            if (used[i]) continue;
            if (b < 0) { b = i; continue; }
            int d = cards[b];
            if (is_trump(c) != is_trump(d)) {          /* plain cards first */
                if (!is_trump(c)) b = i;
            } else if (is_trump(c)) {                   /* then the lowest trumps */
                if (weaker(c, d)) b = i;
            } else if (points(c) != points(d)) {        /* most points */
                if (points(c) > points(d)) b = i;
            } else if (len[suit_of(c)] < len[suit_of(d)]) {  /* shorter suit */
                b = i;
            }
        }
        used[b] = 1;
        out[k] = cards[b];
        st.gone[out[k]] = 1;     /* burying is not an event: remember it here */
        st.in_hand[out[k]] = 0;
    }
}

/* Lead a trick. Stronger: count trumps out, lead toward a partner's void.
 * (A small-zole soloist, which this bot never bids, plays here as in a take;
 * it should rather play like the table game and avoid every trick.) */
static int lead(int *legal, int n) {
    int trumps[NCARDS], nt = 0, plains[NCARDS], np = 0;
    for (int i = 0; i < n; i++) {
        if (is_trump(legal[i])) trumps[nt++] = legal[i];
        else plains[np++] = legal[i];
    }
    if (st.table) return pick(legal, n, weaker);
    if (st.seat == st.soloist) {
        if (nt) {
            int top = pick(trumps, nt, stronger), sure = 1;
            for (int c = 0; c < NCARDS; c++)  /* a stronger trump still out? */
                if (is_trump(c) && strength(c) > strength(top) && !st.gone[c] && !st.in_hand[c])
                    sure = 0;
            return sure ? top : pick(trumps, nt, weaker);
        }
        return pick(plains, np, richer_strong);
    }
    for (int i = 0; i < np; i++)   /* defender: cash an ace */
        if (RANKS[plains[i] % 8] == 'A') return plains[i];
    return pick(legal, n, cheaper);
}

/* Follow to a trick. Stronger: remember who is void in which suit. */
static int follow(int *legal, int n) {
    int w = trick_winner(), wcard = st.trick_card[w];
    int winners[NCARDS], nw = 0, losers[NCARDS], nl = 0;
    for (int i = 0; i < n; i++) {
        if (beats(legal[i], wcard)) winners[nw++] = legal[i];
        else losers[nl++] = legal[i];
    }
    if (st.table)  /* table game: take no trick if you can help it */
        return nl ? pick(losers, nl, stronger) : pick(legal, n, weaker);
    if (partners(st.seat, st.trick_seat[w]) && st.ntrick == 2)
        return pick(legal, n, richer);   /* partner wins: give it points */
    if (nw) return pick(winners, nw, cheaper);
    return pick(legal, n, cheaper);
}

/* ---- The protocol ---------------------------------------------------------- */

static void on_go(char **tok, int n) {
    const char *id = "0", *phase = "", *talon = NULL, *buried = NULL;
    char *legal = NULL;
    for (int i = 1; i + 1 < n; i += 2) {
        if (strcmp(tok[i], "id") == 0) id = tok[i + 1];
        else if (strcmp(tok[i], "phase") == 0) phase = tok[i + 1];
        else if (strcmp(tok[i], "legal") == 0) legal = tok[i + 1];
        else if (strcmp(tok[i], "talon") == 0) talon = tok[i + 1];
        else if (strcmp(tok[i], "buried") == 0) buried = tok[i + 1];
    }
    if (!legal) return;
    /* The talon and our buried cards are never events: they come in `go` only
     * (a restarted soloist learns its buried cards this way too). */
    int extra[2], k;
    if (!st.talon_taken && (k = parse_list(talon, extra, 2)) > 0) {
        st.talon_taken = 1;
        for (int j = 0; j < k; j++) add_to_hand(extra[j]);
    }
    k = parse_list(buried, extra, 2);
    for (int j = 0; j < k; j++) st.gone[extra[j]] = 1, st.in_hand[extra[j]] = 0;

    if (strcmp(phase, "bid") == 0) {
        printf("action %s %s\n", id, decide_bid(legal));
        return;
    }
    int cards[NCARDS], nc = parse_list(legal, cards, NCARDS);
    if (nc == 0) return;
    if (strcmp(phase, "bury") == 0 && nc >= 2) {
        int out[2];
        decide_bury(cards, nc, out);
        printf("action %s %s %s\n", id, card_name(out[0]), card_name(out[1]));
    } else {
        /* Our own state chooses, but only ever among the legal cards. */
        for (int i = 0; i < nc; i++)
            if (!st.in_hand[cards[i]]) {
                fprintf(stderr, "starter-c: %s is legal but not in my hand\n",
                        card_name(cards[i]));
                add_to_hand(cards[i]);
            }
        int c = st.ntrick == 0 || st.ntrick == 3 ? lead(cards, nc) : follow(cards, nc);
        printf("action %s %s\n", id, card_name(c));
    }
}

int main(void) {
    /* The arena waits for each answer: a line left in stdout's buffer is never
     * sent and the bot times out. Line buffering sends every line as soon as its
     * '\n' is written (stdout to a pipe is fully buffered by default). */
    setvbuf(stdout, NULL, _IOLBF, 0);
    static char line[1 << 17];   /* protocol lines are at most 64 KiB */
    char *tok[512];
    while (fgets(line, sizeof line, stdin)) {
        int n = 0;
        for (char *t = strtok(line, " \t\r\n"); t && n < 512; t = strtok(NULL, " \t\r\n"))
            tok[n++] = t;
        if (n == 0) continue;
        if (strcmp(tok[0], "zole") == 0) {
            printf("id name starter-c\nid author zole-arena starter\nzoleok 1\n");
        } else if (strcmp(tok[0], "isready") == 0) {
            printf("readyok\n");
        } else if (strcmp(tok[0], "quit") == 0) {
            return 0;
        } else if (strcmp(tok[0], "newdeal") == 0) {
            new_deal(tok, n);
        } else if (strcmp(tok[0], "bid") == 0 && n >= 3) {
            on_bid(atoi(tok[1]), tok[2]);
        } else if (strcmp(tok[0], "card") == 0 && n >= 3) {
            on_card(atoi(tok[1]), parse_card(tok[2]));
        } else if (strcmp(tok[0], "trick") == 0) {
            st.ntrick = 0;
        } else if (strcmp(tok[0], "go") == 0) {
            on_go(tok, n);
        }
        /* Anything else (setoption, result, unknown lines) is ignored. */
    }
    return 0;
}
