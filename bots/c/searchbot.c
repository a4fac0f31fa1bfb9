/*
 * searchbot.c - SearchBot, a perfect-information Monte Carlo Zole bot for the
 * zole-arena bot protocol v1.
 *
 * One file, C99, libc only (no libm).  Build:
 *     cc -std=c99 -O2 -Wall -Wextra -o searchbot searchbot.c
 *
 * Every decision (bid, bury, card) is taken the same way, as in the Skat
 * literature (Kupferschmid & Helmert 2007; Long et al. 2010):
 *   1. sample deals of the hidden cards consistent with what the seat knows
 *      (its hand, every card played and by whom, the voids shown, its own
 *      bury; softly, the bids: a passer is unlikely to hold a take hand);
 *   2. solve every sample with open cards (alpha-beta with a transposition
 *      table; null-window tests on the soloist's points decide the scoring
 *      band; boolean searches decide all tricks / no trick / small zole; a
 *      paranoid search for the table game);
 *   3. map each alternative's outcome to this seat's payoff with the rules'
 *      amounts, and choose the best mean, stopping early once the best is
 *      clear (paired 3-standard-error test) or the time share is spent.
 * The bot keeps no state between requests except the rules' amounts from the
 * last `newdeal`; a restart mid-deal makes no difference.  If anything is
 * odd it answers the first legal item (the first two when burying).
 * SEARCHBOT.md beside this file documents the design and measured figures.
 */

#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Cards                                                               */
/* ------------------------------------------------------------------ */

#define NCARDS 26
#define TRUMP 3 /* category of trumps; plain suits are 0 (C), 1 (S), 2 (H) */
#define BIT(c) (1u << (c))
#define ALLCARDS ((1u << NCARDS) - 1)

/* Canonical order, strongest first within each category: 0 = QC .. 13 = 7D
 * (trumps), then A T K 9 of clubs, spades, hearts.  A lower index beats a
 * higher one of the same category, and categories are contiguous ranges,
 * so "cards between two cards" is a simple bit range. */
static const char *const CARD_NAME[NCARDS] = {
    "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D",
    "7D", "AC", "TC", "KC", "9C", "AS", "TS", "KS", "9S", "AH", "TH", "KH", "9H"};

static int CAT[NCARDS], PTS[NCARDS];
static uint32_t CATMASK[4];
static uint8_t PLO[8192], PHI[8192]; /* card points of 13-bit halves of a mask */

static int mpts(uint32_t m) { return PLO[m & 8191] + PHI[(m >> 13) & 8191]; }
static int popc(uint32_t m) { return __builtin_popcount(m); }

static void init_tables(void)
{
    int c;
    uint32_t m;
    for (c = 0; c < NCARDS; c++) {
        CAT[c] = c < 14 ? TRUMP : (c - 14) / 4;
        switch (CARD_NAME[c][0]) {
        case 'A': PTS[c] = 11; break;
        case 'T': PTS[c] = 10; break;
        case 'K': PTS[c] = 4; break;
        case 'Q': PTS[c] = 3; break;
        case 'J': PTS[c] = 2; break;
        default: PTS[c] = 0;
        }
        CATMASK[CAT[c]] |= BIT(c);
    }
    for (m = 0; m < 8192; m++) {
        int lo = 0, hi = 0, b;
        for (b = 0; b < 13; b++)
            if (m & BIT(b)) {
                lo += PTS[b];
                hi += PTS[13 + b];
            }
        PLO[m] = (uint8_t)lo;
        PHI[m] = (uint8_t)hi;
    }
}

/* Parses a card ("QC", "10d", "td"); returns its index or -1. */
static int parse_card(const char *s)
{
    char r, su;
    size_t n = strlen(s);
    int i;
    if (n == 2) {
        r = (char)toupper((unsigned char)s[0]);
        su = (char)toupper((unsigned char)s[1]);
    } else if (n == 3 && s[0] == '1' && s[1] == '0') {
        r = 'T';
        su = (char)toupper((unsigned char)s[2]);
    } else {
        return -1;
    }
    for (i = 0; i < NCARDS; i++)
        if (CARD_NAME[i][0] == r && CARD_NAME[i][1] == su) return i;
    return -1;
}

/* Does card a beat the card b currently winning a trick led in category
 * led?  (b is always a trump or of the led suit.) */
static int beats(int a, int b, int led)
{
    if (CAT[a] == TRUMP) return CAT[b] != TRUMP || a < b;
    if (CAT[b] == TRUMP || CAT[a] != led) return 0;
    return a < b;
}

/* Position (0..2) of the winning card of a complete trick. */
static int best3(int c0, int c1, int c2)
{
    int led = CAT[c0], b = 0, bc = c0;
    if (beats(c1, bc, led)) {
        b = 1;
        bc = c1;
    }
    if (beats(c2, bc, led)) b = 2;
    return b;
}

/* Cards strictly between a < b (same category: a contiguous range). */
static uint32_t between(int a, int b) { return BIT(b) - BIT(a + 1); }

/* ------------------------------------------------------------------ */
/* Hand evaluation (priors: bid inference, bury candidates)            */
/* ------------------------------------------------------------------ */

/* RuleBot's hand strength, x100: trumps by weight, plain aces (1.0 in a
 * suit of 1-2 cards, 0.7 longer), a lone ten 0.3, a void 0.2.  RuleBot takes
 * from 875 (wpt) / 925 (lzf) and plays zole from 1175. */
static const int TRUMP_W[14] = {230, 220, 200, 180, 160, 150, 140, 130, 180, 160, 115, 100, 100, 100};

static int strength100(uint32_t h)
{
    int s = 0, c, su;
    for (c = 0; c < 14; c++)
        if (h & BIT(c)) s += TRUMP_W[c];
    for (su = 0; su < 3; su++) {
        uint32_t m = h & CATMASK[su];
        int first = 14 + 4 * su, n = popc(m);
        if (n == 0) s += 20;
        else if (m & BIT(first)) s += n <= 2 ? 100 : 70;
        else if (m == BIT(first + 1)) s += 30;
    }
    return s;
}

static int zole_hand(uint32_t h)
{
    return strength100(h) >= 1175 || (popc(h & CATMASK[TRUMP]) >= 7 && popc(h & 0xFu) >= 3);
}

/* RuleBot's bury value (card points kept x1): what the plain cards of the
 * kept 8 are worth plus the buried points, minus the cost of burying trumps.
 * Used only to rank candidate buries before solving them. */
static int keep_value(uint32_t h)
{
    int v = 0, su;
    for (su = 0; su < 3; su++) {
        int first = 14 + 4 * su;
        uint32_t m = h & CATMASK[su];
        int a = (m & BIT(first)) != 0, t = (m & BIT(first + 1)) != 0, k = (m & BIT(first + 2)) != 0;
        if (!m) {
            v += 60;
            continue;
        }
        v -= 30 * popc(m);
        if (a) v += 200;
        if (t) v += a ? 80 : -100;
        if (k && !a && !t) v -= 40;
    }
    return v;
}

static int bury_value(uint32_t h10, int a, int b)
{
    int v = 10 * (PTS[a] + PTS[b]) + keep_value(h10 & ~BIT(a) & ~BIT(b));
    if (a < 14) v -= 100 + 5 * TRUMP_W[a] / 10;
    if (b < 14) v -= 100 + 5 * TRUMP_W[b] / 10;
    return v;
}

/* The k best pairs of h10 by bury_value, best first; returns how many. */
static int bury_candidates(uint32_t h10, int k, int *pa, int *pb)
{
    int cards[12], n = 0, i, j, cnt = 0, val[64];
    uint32_t m = h10;
    while (m && n < 12) {
        cards[n++] = __builtin_ctz(m);
        m &= m - 1;
    }
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            int v = bury_value(h10, cards[i], cards[j]), pos = cnt < k ? cnt : k;
            if (cnt >= k && v <= val[k - 1]) continue;
            while (pos > 0 && val[pos - 1] < v) {
                if (pos < k) {
                    val[pos] = val[pos - 1];
                    pa[pos] = pa[pos - 1];
                    pb[pos] = pb[pos - 1];
                }
                pos--;
            }
            val[pos] = v;
            pa[pos] = cards[i];
            pb[pos] = cards[j];
            if (cnt < k) cnt++;
        }
    return cnt;
}

/* ------------------------------------------------------------------ */
/* Random numbers, time                                                */
/* ------------------------------------------------------------------ */

typedef struct {
    uint64_t s;
} Rng;

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rnd(Rng *r)
{
    r->s += 0x9e3779b97f4a7c15ULL;
    return mix64(r->s);
}

static int rnd_below(Rng *r, int n) { return (int)((rnd(r) >> 33) % (uint64_t)n); }
static double rnd_unit(Rng *r) { return (double)(rnd(r) >> 11) * (1.0 / 9007199254740992.0); }

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* Options, rules                                                      */
/* ------------------------------------------------------------------ */

static int opt_samples = 0;      /* 0: by time; N: exactly N per decision */
static long opt_seed = 0;        /* 0: from time and pid */
static int opt_max_samples = 50;
static int opt_time_use = 80;    /* percent of `time` */
static int opt_bid_margin = -40;     /* wpt: percent of the contract's ordinary win */
static int opt_bid_margin_lzf = -50; /* lzf (any rules whose preset is lzf) */
static int opt_zole_bonus = 10;      /* card points credited to our zole when bidding */
static int opt_refine = 10;          /* percent: in-band tie-break in play (take, zole) */
static int debug = 0;

enum { CT_NONE, CT_TAKE, CT_ZOLE, CT_SMALL, CT_TABLE, CT_OTHER };
enum { PH_NONE, PH_BID, PH_BURY, PH_PLAY, PH_OTHER };
enum { BID_PASS, BID_TAKE, BID_ZOLE, BID_SMALL, BID_BAD };

typedef struct {
    int lzf;               /* preset lzf (else wpt) */
    int take[6], zole[6];  /* per opponent: all, high win, win, loss, high loss, no trick */
    int small[2];          /* small zole: won, lost */
    int allpass_table;     /* 1: table game, 0: pule */
    int tableloser_points; /* 1: by points only */
    int tablepay;
    int cpb, ppb, ptakeonly; /* pule bonuses, pules in take games only */
} Rules;

static Rules rules_now;
static int rules_seen = 0; /* a newdeal was read */

static void rules_default(Rules *r, int lzf)
{
    static const int WT[6] = {6, 5, 4, -5, -6, -7}, LT[6] = {3, 2, 1, -2, -3, -4},
                     LZ[6] = {7, 6, 5, -6, -7, -8};
    memset(r, 0, sizeof *r);
    r->lzf = lzf;
    memcpy(r->take, lzf ? LT : WT, sizeof r->take);
    memcpy(r->zole, LZ, sizeof r->zole);
    r->small[0] = 6;
    r->small[1] = -7;
    r->allpass_table = !lzf;
    r->tableloser_points = 0;
    r->tablepay = 2;
    r->cpb = 1;
    r->ppb = 2;
    r->ptakeonly = 0;
}

/* Reads "a,b,c,..." into n ints; returns 1 if all n were read. */
static int parse_ints(const char *s, int *out, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < -1000 || v > 1000) return 0;
        out[i] = (int)v;
        s = end;
        if (i + 1 < n) {
            if (*s != ',') return 0;
            s++;
        }
    }
    return *s == '\0';
}

/* ------------------------------------------------------------------ */
/* Lines and tokens                                                    */
/* ------------------------------------------------------------------ */

#define MAXLINE 65536
#define MAXTOK (MAXLINE / 2 + 2)
#define MAXLIST 64

static char line_buf[MAXLINE + 3];
static char *tok[MAXTOK];

static void out(const char *s)
{
    fputs(s, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

static int tokenize(char *s)
{
    int n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
        if (!*s) break;
        if (n < MAXTOK) tok[n++] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') s++;
        if (!*s) break;
        *s++ = '\0';
    }
    return n;
}

static int ieq(const char *a, const char *b)
{
    while (*a && *b) {
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
        a++;
        b++;
    }
    return *a == *b;
}

/* ------------------------------------------------------------------ */
/* The go request                                                      */
/* ------------------------------------------------------------------ */

typedef struct {
    int n, bad;
    char *raw[MAXLIST];
    int v[MAXLIST];
} List;

typedef struct {
    const char *id;
    int phase, contract, lzf;
    int seat, dealer, forehand, soloist;
    long time_ms, clock_ms, inc_ms;
    int has_clock, commonpules;
    List hand, bids, talon, buried, played, winners, legal, ppules;
    int has_legal;
} Go;

static const char *const GO_KEYS[] = {
    "id", "time", "phase", "deal", "seat", "dealer", "forehand", "rules", "hand", "scores",
    "commonpules", "personalpules", "bids", "contract", "soloist", "talon", "buried",
    "played", "winners", "legal", "clock", "inc",
#ifdef SEARCHBOT_ORACLE
    "oracle0", "oracle1", "oracle2", "oracletalon",
#endif
    NULL};

#ifdef SEARCHBOT_ORACLE
/* Research build (bots/ceiling_bot.py): the go line also carries every seat's dealt hand and
 * the talon, and every sample is dealt from them, so the same search plays with open cards.
 * Only a take's bury stays hidden from the defenders (its two cards are sampled among the
 * soloist's). Measures the ceiling of the method; the arena never sends these fields. */
static uint32_t or_h[3], or_t;
static int or_on, or_contract, or_soloist, or_phase, or_me;
#endif

static int is_go_key(const char *s)
{
    int i;
    if (s[0] < 'a' || s[0] > 'z' || strchr(s, ',') != NULL) return 0;
    for (i = 0; GO_KEYS[i]; i++)
        if (GO_KEYS[i][0] == s[0] && strcmp(s, GO_KEYS[i]) == 0) return 1;
    return 0;
}

static int parse_seat(const char *s)
{
    if (s && s[0] >= '0' && s[0] <= '2' && s[1] == '\0') return s[0] - '0';
    return -1;
}

static int parse_bid(const char *s)
{
    if (ieq(s, "pass")) return BID_PASS;
    if (ieq(s, "take")) return BID_TAKE;
    if (ieq(s, "zole")) return BID_ZOLE;
    if (ieq(s, "smallzole")) return BID_SMALL;
    return BID_BAD;
}

/* Splits a comma list in place.  kind: 0 raw, 1 cards, 2 seats, 3 bids. */
static void parse_list(List *l, char *s, int kind)
{
    l->n = 0;
    l->bad = 0;
    if (!s || strcmp(s, "-") == 0) return;
    for (;;) {
        char *comma = strchr(s, ',');
        if (comma) *comma = '\0';
        if (*s == '\0' || l->n >= MAXLIST) {
            l->bad = 1;
        } else {
            l->raw[l->n] = s;
            l->v[l->n] = kind == 1 ? parse_card(s) : kind == 2 ? parse_seat(s)
                       : kind == 3 ? (parse_bid(s) == BID_BAD ? -1 : parse_bid(s)) : 0;
            if (kind && l->v[l->n] < 0) l->bad = 1;
            l->n++;
        }
        if (!comma) break;
        s = comma + 1;
    }
}

static long parse_long(const char *s, long dflt)
{
    char *end;
    long v;
    if (!s) return dflt;
    v = strtol(s, &end, 10);
    if (end == s || *end) return dflt;
    return v;
}

/* FNV-1a hash of the go line without id, time, clock and inc (and their
 * values): the same position hashes the same in any process. */
static uint64_t go_hash(int ntok)
{
    uint64_t h = 1469598103934665603ULL;
    int i;
    for (i = 1; i < ntok; i++) {
        const char *p;
        if (is_go_key(tok[i]) && (strcmp(tok[i], "id") == 0 || strcmp(tok[i], "time") == 0 ||
                                  strcmp(tok[i], "clock") == 0 || strcmp(tok[i], "inc") == 0)) {
            if (i + 1 < ntok && !is_go_key(tok[i + 1])) i++;
            continue;
        }
        for (p = tok[i]; *p; p++) {
            h ^= (unsigned char)*p;
            h *= 1099511628211ULL;
        }
        h ^= ' ';
        h *= 1099511628211ULL;
    }
    return h;
}

static void parse_go(Go *g, int ntok)
{
    int i;
    memset(g, 0, sizeof *g);
#ifdef SEARCHBOT_ORACLE
    or_on = 0;
#endif
    g->seat = g->dealer = g->forehand = g->soloist = -1;
    g->time_ms = -1;
    g->lzf = -1;
    for (i = 1; i < ntok; i++) {
        const char *k = tok[i];
        char *v = NULL;
        if (!is_go_key(k)) continue;
        if (i + 1 < ntok && !is_go_key(tok[i + 1])) v = tok[++i];
        if (strcmp(k, "id") == 0) g->id = v;
        else if (strcmp(k, "time") == 0) g->time_ms = parse_long(v, -1);
        else if (strcmp(k, "clock") == 0) {
            g->clock_ms = parse_long(v, -1);
            g->has_clock = g->clock_ms >= 0;
        } else if (strcmp(k, "inc") == 0) g->inc_ms = parse_long(v, 0);
        else if (strcmp(k, "phase") == 0)
            g->phase = !v ? PH_NONE : ieq(v, "bid") ? PH_BID : ieq(v, "bury") ? PH_BURY
                     : ieq(v, "play") ? PH_PLAY : PH_OTHER;
        else if (strcmp(k, "contract") == 0)
            g->contract = !v || strcmp(v, "-") == 0 ? CT_NONE : ieq(v, "take") ? CT_TAKE
                        : ieq(v, "zole") ? CT_ZOLE : ieq(v, "smallzole") ? CT_SMALL
                        : ieq(v, "table") ? CT_TABLE : CT_OTHER;
        else if (strcmp(k, "rules") == 0) g->lzf = v && ieq(v, "lzf");
        else if (strcmp(k, "seat") == 0) g->seat = parse_seat(v);
        else if (strcmp(k, "dealer") == 0) g->dealer = parse_seat(v);
        else if (strcmp(k, "forehand") == 0) g->forehand = parse_seat(v);
        else if (strcmp(k, "soloist") == 0) g->soloist = parse_seat(v);
        else if (strcmp(k, "commonpules") == 0) g->commonpules = (int)parse_long(v, 0);
        else if (strcmp(k, "personalpules") == 0) parse_list(&g->ppules, v, 2);
        else if (strcmp(k, "hand") == 0) parse_list(&g->hand, v, 1);
        else if (strcmp(k, "bids") == 0) parse_list(&g->bids, v, 3);
        else if (strcmp(k, "talon") == 0) parse_list(&g->talon, v, 1);
        else if (strcmp(k, "buried") == 0) parse_list(&g->buried, v, 1);
        else if (strcmp(k, "played") == 0) parse_list(&g->played, v, 1);
        else if (strcmp(k, "winners") == 0) parse_list(&g->winners, v, 2);
#ifdef SEARCHBOT_ORACLE
        else if (strncmp(k, "oracle", 6) == 0) {
            List cards;
            uint32_t m = 0;
            int j;
            parse_list(&cards, v, 1);
            for (j = 0; j < cards.n; j++) m |= BIT(cards.v[j]);
            if (k[6] == 't') or_t = m;
            else or_h[k[6] - '0'] = m;
            or_on = !cards.bad;
        }
#endif
        else if (strcmp(k, "legal") == 0) {
            parse_list(&g->legal, v, 0);
            g->has_legal = v != NULL;
        }
    }
    if (g->forehand < 0 && g->dealer >= 0) g->forehand = (g->dealer + 1) % 3;
#ifdef SEARCHBOT_ORACLE
    or_contract = g->contract;
    or_soloist = g->soloist;
    or_phase = g->phase;
    or_me = g->seat;
#endif
}

/* ------------------------------------------------------------------ */
/* The position: what this seat knows                                  */
/* ------------------------------------------------------------------ */

typedef struct {
    int me, forehand, soloist, contract;
    uint32_t hand;         /* my cards now */
    uint32_t gone;         /* cards in completed tricks */
    uint32_t playedby[3];  /* cards each seat has played (current trick too) */
    uint32_t buried;       /* my known bury (take soloist), else 0 */
    int table[3], tn, leader, ndone;
    int ptsw[3], trk[3];   /* card points and tricks won in completed tricks */
    int held[3];           /* cards each seat holds now */
    int voidc[3][4];       /* seat shown void in category */
    int nbids, bid[3];     /* bids so far, from the forehand */
    int common;            /* common pules */
    int nppules, ppules[MAXLIST];
} Pos;

/* Builds the position from a play request; 0 if anything is inconsistent. */
static int build_pos(const Go *g, Pos *p)
{
    int i, k, leader;
    memset(p, 0, sizeof *p);
    if (g->seat < 0 || g->forehand < 0 || g->hand.bad || g->played.bad || g->winners.bad) return 0;
    if (g->bids.bad || g->buried.bad || g->ppules.bad) return 0;
    p->me = g->seat;
    p->forehand = g->forehand;
    p->soloist = g->soloist;
    p->contract = g->contract;
    p->common = g->commonpules;
    p->nppules = g->ppules.n;
    for (i = 0; i < g->ppules.n; i++) p->ppules[i] = g->ppules.v[i];
    p->nbids = g->bids.n > 3 ? 3 : g->bids.n;
    for (i = 0; i < p->nbids; i++) p->bid[i] = g->bids.v[i];
    for (i = 0; i < g->hand.n; i++) {
        if (p->hand & BIT(g->hand.v[i])) return 0;
        p->hand |= BIT(g->hand.v[i]);
    }
    if (g->played.n > 24) return 0;
    leader = g->forehand;
    for (k = 0; k < g->played.n; k++) {
        int c = g->played.v[k], pos = k % 3, seat = (leader + pos) % 3;
        if ((p->hand | p->playedby[0] | p->playedby[1] | p->playedby[2]) & BIT(c)) return 0;
        p->playedby[seat] |= BIT(c);
        p->table[pos] = c;
        if (pos > 0 && CAT[c] != CAT[p->table[0]]) p->voidc[seat][CAT[p->table[0]]] = 1;
        if (pos == 2) {
            int w = (leader + best3(p->table[0], p->table[1], p->table[2])) % 3;
            if (k / 3 < g->winners.n && g->winners.v[k / 3] != w) return 0;
            p->trk[w]++;
            p->ptsw[w] += PTS[p->table[0]] + PTS[p->table[1]] + PTS[p->table[2]];
            p->gone |= BIT(p->table[0]) | BIT(p->table[1]) | BIT(p->table[2]);
            leader = w;
            p->ndone++;
        }
    }
    p->tn = g->played.n % 3;
    p->leader = leader;
    for (i = 0; i < 3; i++) {
        p->held[i] = 8 - popc(p->playedby[i]);
        if (p->held[i] < 0) return 0;
    }
    if (popc(p->hand) != p->held[p->me]) return 0;
    if (g->contract == CT_TAKE && g->soloist == p->me && g->buried.n == 2) {
        p->buried = BIT(g->buried.v[0]) | BIT(g->buried.v[1]);
        if (popc(p->buried) != 2 || (p->buried & (p->hand | p->gone | p->playedby[0] |
                                                  p->playedby[1] | p->playedby[2])))
            p->buried = 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* The open-card solver                                                */
/* ------------------------------------------------------------------ */

/* Search state of one sample: the three hands, the trick on the table, the
 * soloist; inplay = cards in hands or on the table (not yet in a completed
 * trick), used for card equivalence. */
static uint32_t SH[3], Sinplay;
static int Stab[3], Stn, Sleader, Ssol;
static long long nodes;
static int aborted;
static int64_t deadline_hard; /* ns: abandon the sample past this */

/* Table game extras: tricks and points won so far by each seat; me. */
static int Ttr[3], Tpt[3], Tme, Tbypts;

/* Modes: the soloist's future points; wins all; wins any; (table game proxy)
 * the future tricks of seat Ssol.  With Sinv set, Ssol minimises (M_TRK:
 * the table game's proxy; M_ANY: a small zole, whose soloist avoids tricks). */
enum { M_PTS, M_ALL, M_ANY, M_TRK };
static int Sinv;

/* Transposition table for the two-sided searches, keyed at trick
 * boundaries by the cards in play (26 bits), the leader and the mode: the
 * value (soloist's future points, or a boolean) depends on nothing else
 * once a sample's hands are fixed.  A generation tag clears it per sample. */
typedef struct {
    uint32_t key;
    uint16_t gen;
    uint8_t lo, hi, mv;
} TTE;
#define HIST_W 100000 /* static order first, history breaks ties */
#ifdef SEARCHBOT_SOLVER
#define TT_BITS 22 /* the solver keeps a deal's tables across many requests */
#else
#define TT_BITS 20
#endif
static TTE *tt;
static uint16_t tt_gen = 0;

/* The table game's table: outcome depends also on tricks and points won. */
typedef struct {
    uint64_t key;
    uint16_t gen;
    int8_t lo, hi;
    uint8_t mv;
} TTE2;
#ifdef SEARCHBOT_SOLVER
#define TT2_BITS 21
#else
#define TT2_BITS 19
#endif
static TTE2 *tt2;

static void new_gen(void)
{
    tt_gen++;
    if (tt_gen == 0) {
        memset(tt, 0, sizeof(TTE) << TT_BITS);
        memset(tt2, 0, sizeof(TTE2) << TT2_BITS);
        tt_gen = 1;
    }
}

/* History heuristic: cards that caused cutoffs, by card (each card has one
 * owner in a sample); kept across the samples of one decision. */
static int hist[NCARDS];

static int time_up(void)
{
    if (now_ns() > deadline_hard) aborted = 1;
    return aborted;
}

/* Orders the legal moves of seat p, dropping equivalent cards (same
 * category, no card in play between them, same points unless only tricks
 * matter).  side(a, b): do seats a and b win together?  Returns the count. */
static int gen_moves(int p, int *mv, int mode_tricks_only, int table_mode, int ttmv)
{
    uint32_t legal = SH[p], m;
    int n = 0, prev = -1, sc[12], i, j;
    if (Stn > 0) {
        uint32_t f = SH[p] & CATMASK[CAT[Stab[0]]];
        if (f) legal = f;
    }
    /* current winner of the trick */
    int bpos = 0, bc = -1, led = -1, wseat = -1, last = Stn == 2, friendly = 0;
    if (Stn > 0) {
        led = CAT[Stab[0]];
        bc = Stab[0];
        for (i = 1; i < Stn; i++)
            if (beats(Stab[i], bc, led)) {
                bc = Stab[i];
                bpos = i;
            }
        wseat = (Sleader + bpos) % 3;
        friendly = table_mode ? 0 : ((wseat == Ssol) == (p == Ssol));
    }
    for (m = legal; m; m &= m - 1) {
        int c = __builtin_ctz(m), s;
        if (prev >= 0 && CAT[prev] == CAT[c] && (between(prev, c) & Sinplay) == 0 &&
            (mode_tricks_only || PTS[prev] == PTS[c])) {
            prev = c;
            continue; /* equivalent to prev */
        }
        prev = c;
        if (Stn == 0) {
            int top = (CATMASK[CAT[c]] & Sinplay & ~SH[p] & (BIT(c) - 1)) == 0;
            if (table_mode) s = -top * 50 - PTS[c] + c;
#ifdef ORD2
            else if (p == Ssol) s = CAT[c] == TRUMP ? (top ? 80 : 40 - PTS[c]) : (top ? 60 + PTS[c] : 20 - PTS[c]);
            else s = CAT[c] == TRUMP ? (top ? 50 : 10 - PTS[c]) : (top ? 80 + PTS[c] : 30 - PTS[c]);
#else
            else s = top ? 50 + PTS[c] : 20 - PTS[c];
#endif
        } else if (table_mode) {
            s = beats(c, bc, led) ? 20 - PTS[c] - (last ? 0 : c) : 100 + PTS[c];
        } else if (friendly) {
            s = last ? PTS[c] : -PTS[c];
        } else if (beats(c, bc, led)) {
            s = 100 + (last ? PTS[c] * 2 + c : -c);
        } else {
            s = -PTS[c];
        }
        s = s * HIST_W + hist[c];
        if (c == ttmv) s = 1 << 30;
        /* insertion sort, best first */
        for (j = n; j > 0 && sc[j - 1] < s; j--) {
            sc[j] = sc[j - 1];
            mv[j] = mv[j - 1];
        }
        sc[j] = s;
        mv[j] = c;
        n++;
    }
    return n;
}

/* After move c of a node searched to value v: the node's best value and move
 * so far and its window (the soloist, or this seat in the table game, is the
 * maximising side).  1 when the window has closed: a cutoff, for which c earns
 * history credit (more, the more cards are left). */
static int note_move(int maxnode, int v, int c, int *best, int *bestmv, int *alpha, int *beta)
{
    if (maxnode ? v > *best : v < *best) {
        *best = v;
        *bestmv = c;
        if (maxnode && v > *alpha) *alpha = v;
        if (!maxnode && v < *beta) *beta = v;
    }
    if (*alpha < *beta) return 0;
    hist[c] += popc(Sinplay) * popc(Sinplay);
    return 1;
}

/* A transposition entry's bounds [lo, hi] narrowed by a fail-soft search of
 * the window (alpha0, beta0) that returned best. */
static void tt_bounds(int best, int alpha0, int beta0, int *lo, int *hi)
{
    if (best <= alpha0) {
        if (best < *hi) *hi = best;
    } else if (best >= beta0) {
        if (best > *lo) *lo = best;
    } else {
        *lo = *hi = best;
    }
}

/* Fail-soft alpha-beta for the soloist's contracts.  Returns, from this
 * node on, the soloist's card points (M_PTS), or 1/0 for "wins every
 * trick" (M_ALL) or "wins some trick" (M_ANY).  The soloist maximises.
 * force >= 0: at this node only that card is tried (root moves). */
static int ab(int mode, int alpha, int beta, int force)
{
    int p, n, i, best, mv[12], ttmv = -1, alpha0, beta0, maxnode;
    TTE *e = NULL;
    uint32_t key = 0;
    if (aborted) return 0;
    if ((++nodes & 2047) == 0 && time_up()) return 0;
    if (Stn == 0) {
        uint32_t mask = SH[0] | SH[1] | SH[2];
        if (!mask) return mode == M_ALL ? 1 : 0;
        if (popc(mask) == 3 && force < 0) {
            /* last trick: one card each, play it out */
            int c0 = __builtin_ctz(SH[Sleader]), c1 = __builtin_ctz(SH[(Sleader + 1) % 3]);
            int c2 = __builtin_ctz(SH[(Sleader + 2) % 3]);
            int w = (Sleader + best3(c0, c1, c2)) % 3;
            nodes++;
            if (mode == M_PTS) return w == Ssol ? PTS[c0] + PTS[c1] + PTS[c2] : 0;
            if (mode == M_ALL) return w == Ssol;
            return w == Ssol; /* M_ANY, M_TRK */
        }
        if (mode == M_PTS || mode == M_TRK) {
            int r = mode == M_PTS ? mpts(mask) : popc(mask) / 3;
            if (r <= alpha) return r;
            if (beta <= 0) return 0;
        }
        if (force < 0) {
            key = mask | ((uint32_t)Sleader << 26) | ((uint32_t)mode << 28) |
                  ((uint32_t)Sinv << 30);
            e = &tt[(key * 2654435761u) >> (32 - TT_BITS)];
            if (e->key == key && e->gen == tt_gen) {
                if (e->lo >= beta) return e->lo;
                if (e->hi <= alpha) return e->hi;
                if (e->lo > alpha) alpha = e->lo;
                if (e->hi < beta) beta = e->hi;
                ttmv = e->mv;
            }
        }
    } else if (mode == M_PTS) {
        int r = mpts(Sinplay);
        if (r <= alpha) return r;
    }
    alpha0 = alpha;
    beta0 = beta;
    p = (Sleader + Stn) % 3;
    maxnode = (p == Ssol) != ((mode == M_TRK || mode == M_ANY) && Sinv);
    if (force >= 0) {
        mv[0] = force;
        n = 1;
    } else {
        n = gen_moves(p, mv, mode != M_PTS, mode == M_TRK, ttmv);
    }
    best = maxnode ? -1 : 1000;
    int bestmv = mv[0];
    for (i = 0; i < n; i++) {
        int c = mv[i], v;
        SH[p] &= ~BIT(c);
        Stab[Stn++] = c;
        if (Stn == 3) {
            int t0 = Stab[0], t1 = Stab[1], t2 = Stab[2];
            int w = (Sleader + best3(t0, t1, t2)) % 3, saveL = Sleader;
            uint32_t tm = BIT(t0) | BIT(t1) | BIT(t2);
            Sinplay &= ~tm;
            Sleader = w;
            Stn = 0;
            if (mode == M_PTS) {
                int gain = w == Ssol ? PTS[t0] + PTS[t1] + PTS[t2] : 0;
                v = gain + ab(mode, alpha - gain, beta - gain, -1);
            } else if (mode == M_TRK) {
                int gain = w == Ssol;
                v = gain + ab(mode, alpha - gain, beta - gain, -1);
            } else if (mode == M_ALL) {
                v = w != Ssol ? 0 : ab(mode, alpha, beta, -1);
            } else {
                v = w == Ssol ? 1 : ab(mode, alpha, beta, -1);
            }
            Stn = 3;
            Sleader = saveL;
            Sinplay |= tm;
            Stab[0] = t0;
            Stab[1] = t1;
            Stab[2] = t2;
        } else {
            v = ab(mode, alpha, beta, -1);
        }
        Stn--;
        SH[p] |= BIT(c);
        if (aborted) return 0;
        if (note_move(maxnode, v, c, &best, &bestmv, &alpha, &beta)) break;
    }
    if (e) {
        int lo = 0, hi = mode == M_PTS ? 120 : mode == M_TRK ? 8 : 1;
        if (e->key == key && e->gen == tt_gen) {
            lo = e->lo;
            hi = e->hi;
        }
        tt_bounds(best, alpha0, beta0, &lo, &hi);
        e->key = key;
        e->gen = tt_gen;
        e->lo = (uint8_t)lo;
        e->hi = (uint8_t)hi;
        e->mv = (uint8_t)bestmv;
    }
    return best;
}

/* My payoff in the table game in units of the table payment: -2 the sole
 * loser, -1 tied loser with one other, +1 another loses alone, +2 the two
 * others tie, 0 a three-way tie. */
static int tab_outcome(void)
{
    int k[3], i, mx = -1, nl = 0;
    for (i = 0; i < 3; i++) {
        k[i] = Tbypts ? Tpt[i] : Ttr[i] * 256 + Tpt[i];
        if (k[i] > mx) mx = k[i];
    }
    for (i = 0; i < 3; i++) nl += k[i] == mx;
    if (nl == 3) return 0;
    if (k[Tme] == mx) return nl == 1 ? -2 : -1;
    return nl == 1 ? 1 : 2;
}

/* Paranoid fail-soft alpha-beta for the table game: this seat maximises
 * its outcome, the two others minimise it.  TT key: cards in play, leader,
 * tricks and points won by each seat, and the seat valued (63 bits): exact. */
static int ab_tab(int alpha, int beta, int force)
{
    int p, n, i, best, mv[12], ttmv = -1, alpha0, beta0, maxnode;
    TTE2 *e = NULL;
    uint64_t key = 0;
    if (aborted) return 0;
    if ((++nodes & 2047) == 0 && time_up()) return 0;
    if (Stn == 0) {
        uint32_t mask = SH[0] | SH[1] | SH[2];
        int r, i, o1, o2, k[3];
        if (!mask) return tab_outcome();
        /* Decided outcomes: with r tricks (or rp points) left, a seat whose
         * count exceeds everyone else's plus all that is left loses alone;
         * if another seat exceeds mine plus all that is left, I do not lose. */
        r = Tbypts ? mpts(mask) : popc(mask) / 3;
        for (i = 0; i < 3; i++) k[i] = Tbypts ? Tpt[i] : Ttr[i];
        o1 = (Tme + 1) % 3;
        o2 = (Tme + 2) % 3;
        if (k[Tme] > k[o1] + r && k[Tme] > k[o2] + r) return -2;
        if ((k[o1] > k[Tme] + r && k[o1] > k[o2] + r) || (k[o2] > k[Tme] + r && k[o2] > k[o1] + r))
            return 1;
        if ((k[o1] > k[Tme] + r || k[o2] > k[Tme] + r) && beta <= 1) return 1;
        if (force < 0) {
            key = (uint64_t)mask | ((uint64_t)Sleader << 26) | ((uint64_t)Ttr[0] << 28) |
                  ((uint64_t)Ttr[1] << 32) | ((uint64_t)Ttr[2] << 36) | ((uint64_t)Tpt[0] << 40) |
                  ((uint64_t)Tpt[1] << 47) | ((uint64_t)Tpt[2] << 54) | ((uint64_t)Tme << 61);
            e = &tt2[(mix64(key)) >> (64 - TT2_BITS)];
            if (e->key == key && e->gen == tt_gen) {
                if (e->lo >= beta) return e->lo;
                if (e->hi <= alpha) return e->hi;
                if (e->lo > alpha) alpha = e->lo;
                if (e->hi < beta) beta = e->hi;
                ttmv = e->mv;
            }
        }
    }
    alpha0 = alpha;
    beta0 = beta;
    p = (Sleader + Stn) % 3;
    maxnode = p == Tme;
    if (force >= 0) {
        mv[0] = force;
        n = 1;
    } else {
        n = gen_moves(p, mv, 0, 1, ttmv);
    }
    best = maxnode ? -100 : 100;
    int bestmv = mv[0];
    for (i = 0; i < n; i++) {
        int c = mv[i], v;
        SH[p] &= ~BIT(c);
        Stab[Stn++] = c;
        if (Stn == 3) {
            int t0 = Stab[0], t1 = Stab[1], t2 = Stab[2];
            int w = (Sleader + best3(t0, t1, t2)) % 3, saveL = Sleader;
            int gain = PTS[t0] + PTS[t1] + PTS[t2];
            uint32_t tm = BIT(t0) | BIT(t1) | BIT(t2);
            Sinplay &= ~tm;
            Sleader = w;
            Stn = 0;
            Ttr[w]++;
            Tpt[w] += gain;
            v = ab_tab(alpha, beta, -1);
            Ttr[w]--;
            Tpt[w] -= gain;
            Stn = 3;
            Sleader = saveL;
            Sinplay |= tm;
            Stab[0] = t0;
            Stab[1] = t1;
            Stab[2] = t2;
        } else {
            v = ab_tab(alpha, beta, -1);
        }
        Stn--;
        SH[p] |= BIT(c);
        if (aborted) return 0;
        if (note_move(maxnode, v, c, &best, &bestmv, &alpha, &beta)) break;
    }
    if (e) {
        int lo = -2, hi = 2;
        if (e->key == key && e->gen == tt_gen) {
            lo = e->lo;
            hi = e->hi;
        }
        tt_bounds(best, alpha0, beta0, &lo, &hi);
        e->key = key;
        e->gen = tt_gen;
        e->lo = (int8_t)lo;
        e->hi = (int8_t)hi;
        e->mv = (uint8_t)bestmv;
    }
    return best;
}

/* The table game's value (paranoid) by null-window tests: not losing
 * (>= 1) first, then the finer levels. */
static int tab_value(int force)
{
    if (ab_tab(0, 1, force) >= 1) return ab_tab(1, 2, force) >= 2 ? 2 : 1;
    if (ab_tab(-1, 0, force) >= 0) return 0;
    return ab_tab(-2, -1, force) >= -1 ? -1 : -2;
}

/* Small zole: can the defenders force the soloist Ssol to win a trick (he
 * avoiding every one)?  1 if they can (he loses), 0 if not. */
static int small_any(int force)
{
    int v;
    Sinv = 1;
    v = ab(M_ANY, 0, 1, force);
    Sinv = 0;
    return v >= 1 ? 1 : 0;
}

/* Table-game proxy: fewest future tricks for Ssol (by null-window tests
 * from 0 up). */
static int tab_trk(int force)
{
    int t;
    for (t = 0; t < 8; t++)
        if (ab(M_TRK, t, t + 1, force) <= t || aborted) return t;
    return 8;
}

/* Null-window test: can the soloist make at least thr more points? */
static int test_pts(int thr, int force)
{
    if (thr <= 0) return 1;
    if (thr > mpts(Sinplay)) return 0;
    return ab(M_PTS, thr - 1, thr, force) >= thr;
}

/* The band (0 all tricks .. 5 no trick) the soloist reaches with best play
 * from the current search state (after `force` if >= 0).  base: points the
 * soloist already has (tricks won, buried cards); allsofar / nonesofar: he
 * has won every / no completed trick.  Returns -1 if aborted. */
static int solve_band(int base, int allsofar, int nonesofar, int force)
{
    int band;
    if (test_pts(61 - base, force)) {
        if (test_pts(91 - base, force))
            band = allsofar && ab(M_ALL, 0, 1, force) >= 1 ? 0 : 1;
        else
            band = 2;
    } else {
        if (test_pts(31 - base, force))
            band = 3;
        else
            band = nonesofar && ab(M_ANY, 0, 1, force) < 1 ? 5 : 4;
    }
    return aborted ? -1 : band;
}

/* ------------------------------------------------------------------ */
/* Payoffs                                                             */
/* ------------------------------------------------------------------ */

typedef struct {
    const Rules *r;
    int me, common, nppules;
    const int *ppules;
} PayCtx;

static PayCtx pay;

/* This seat's payoff when `sol` plays `contract` (CT_TAKE, CT_ZOLE: band
 * 0..5; CT_SMALL: band 0 won, 1 lost).  Pules (lzf) are approximated: a
 * winning soloist gets the common-pule bonus from each opponent, or, without
 * common pules, the personal-pule bonus from the owner of another's pule;
 * the future cost of a pule written on a loss is ignored. */
static double solo_payoff(int contract, int sol, int band)
{
    const Rules *r = pay.r;
    double a;
    int win, i;
    if (contract == CT_SMALL) {
        a = band == 0 ? r->small[0] : r->small[1];
        win = band == 0;
    } else {
        a = contract == CT_ZOLE ? r->zole[band] : r->take[band];
        win = band <= 2;
    }
    {
        double me = pay.me == sol ? 2.0 * a : -a;
        int pules = !r->allpass_table && (pay.common > 0 || pay.nppules > 0) &&
                    (!r->ptakeonly || contract == CT_TAKE);
        if (win && pules) {
            int own = 0, other = -1;
            for (i = 0; i < pay.nppules; i++) {
                if (pay.ppules[i] == sol) own = 1;
                else if (other < 0) other = pay.ppules[i];
            }
            if (own) {
                /* clears his own pule: no extra */
            } else if (pay.common > 0) {
                me += pay.me == sol ? 2.0 * r->cpb : -(double)r->cpb;
            } else if (other >= 0) {
                if (pay.me == sol) me += r->ppb;
                else if (pay.me == other) me -= r->ppb;
            }
        }
        return me;
    }
}

/* ------------------------------------------------------------------ */
/* Sampling                                                            */
/* ------------------------------------------------------------------ */

/* What a sample must respect: the unknown cards go to the two other seats
 * (need[] cards each, none of a category they are void in) and to the
 * hidden pile (talon or buried cards, pile_n cards, unconstrained).  Soft
 * evidence from bids is checked on the dealt hands (cards held plus
 * played): passers before the soloist, the soloist's strength. */
typedef struct {
    uint32_t unknown;
    int other[2], need[2], pile_n;
    int voidc[2][4];
    uint32_t playedby[2];
    int soft_pass[2];  /* this other seat passed before: weak */
    int soft_solo[2];  /* 1 took (strong after bury), 2 zole bidder */
    int soft_pile;     /* pile is a take bury: trumps unlikely */
    int lzf;
} Spec;

typedef struct {
    uint32_t h[2];
    uint32_t pile;
} Deal;

/* One deal respecting the hard constraints; 0 if none was found. */
static int deal_hard(const Spec *s, Rng *r, Deal *d)
{
    int cards[NCARDS], own[NCARDS], n = 0, i, tries;
    uint32_t m;
    for (m = s->unknown; m; m &= m - 1) cards[n++] = __builtin_ctz(m);
    /* shuffle, then stable-sort by number of possible owners */
    for (i = n - 1; i > 0; i--) {
        int j = rnd_below(r, i + 1), t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    for (i = 0; i < n; i++) {
        int c = cards[i];
        own[c] = (!s->voidc[0][CAT[c]] ? 1 : 0) | (!s->voidc[1][CAT[c]] ? 2 : 0) |
                 (s->pile_n > 0 ? 4 : 0);
#ifdef SEARCHBOT_ORACLE
        if (or_on) { /* each card only to the seat that holds it (a take's bury: soloist or pile) */
            int o, allow = 0, taking = or_contract == CT_TAKE && or_phase == PH_PLAY;
            uint32_t pile = taking && or_soloist != or_me ? or_h[or_soloist] | or_t : or_t;
            for (o = 0; o < 2; o++) {
                int seat = s->other[o];
                if ((or_h[seat] | (taking && seat == or_soloist ? or_t : 0)) & BIT(c)) allow |= 1 << o;
            }
            if (pile & BIT(c)) allow |= 4;
            own[c] &= allow;
        }
#endif
    }
    {
        int sorted[NCARDS], k = 0, want;
        for (want = 1; want <= 3; want++)
            for (i = 0; i < n; i++)
                if (popc((uint32_t)own[cards[i]]) == want) sorted[k++] = cards[i];
        for (i = 0; i < n; i++)
            if (own[cards[i]] == 0) return 0;
        memcpy(cards, sorted, sizeof(int) * (size_t)n);
    }
    for (tries = 0; tries < 40; tries++) {
        int cap[3] = {s->need[0], s->need[1], s->pile_n}, ok = 1;
        d->h[0] = d->h[1] = d->pile = 0;
        for (i = 0; i < n && ok; i++) {
            int c = cards[i], tot = 0, o, x;
            for (o = 0; o < 3; o++)
                if (own[c] & (1 << o)) tot += cap[o];
            if (tot == 0) {
                ok = 0;
                break;
            }
            x = rnd_below(r, tot);
            for (o = 0; o < 3; o++) {
                if (!(own[c] & (1 << o))) continue;
                if (x < cap[o]) break;
                x -= cap[o];
            }
            cap[o]--;
            if (o == 2) d->pile |= BIT(c);
            else d->h[o] |= BIT(c);
        }
        if (ok) return 1;
    }
    /* Exhaustive fallback: depth-first with capacities (tiny problems). */
    {
        int cap[3] = {s->need[0], s->need[1], s->pile_n}, stack[NCARDS], depth = 0;
        for (i = 0; i < n; i++) stack[i] = -1;
        d->h[0] = d->h[1] = d->pile = 0;
        while (depth >= 0 && depth < n) {
            int c = cards[depth], o = stack[depth];
            if (o >= 0) { /* undo the previous choice */
                cap[o]++;
                if (o == 2) d->pile &= ~BIT(c);
                else d->h[o] &= ~BIT(c);
            }
            for (o = o + 1; o < 3; o++)
                if ((own[c] & (1 << o)) && cap[o] > 0) break;
            if (o >= 3) {
                stack[depth] = -1;
                depth--;
                continue;
            }
            stack[depth] = o;
            cap[o]--;
            if (o == 2) d->pile |= BIT(c);
            else d->h[o] |= BIT(c);
            depth++;
        }
        return depth == n;
    }
}

/* Probability to keep a deal given the soft bid evidence. */
static double soft_weight(const Spec *s, const Deal *d)
{
    double w = 1.0;
    int i, thr = s->lzf ? 925 : 875;
    for (i = 0; i < 2; i++) {
        uint32_t h = d->h[i] | s->playedby[i];
        if (s->soft_pass[i]) {
            int st = strength100(h);
            if (st >= thr + 50) w *= 0.03;
            else if (st >= thr) w *= 0.15;
        }
        if (s->soft_solo[i] == 1) {
            int st = strength100(h);
            if (st < thr - 150) w *= 0.15;
            else if (st < thr - 50) w *= 0.4;
        } else if (s->soft_solo[i] == 2) {
            if (!zole_hand(h)) w *= strength100(h) >= 1100 ? 0.1 : 0.02;
        }
    }
    if (s->soft_pile && (d->pile & CATMASK[TRUMP])) w *= 0.1;
    return w;
}

/* A sample: hard constraints always, soft ones by rejection (bounded). */
static int sample_deal(const Spec *s, Rng *r, Deal *d)
{
    int t;
    Deal last;
    int have = 0;
    for (t = 0; t < 300; t++) {
        if (!deal_hard(s, r, d)) return have ? (*d = last, 1) : 0;
        last = *d;
        have = 1;
        if (rnd_unit(r) < soft_weight(s, d)) return 1;
    }
    *d = last;
    return have;
}

/* Fills the spec's bid evidence: seats that passed before the first bid,
 * the soloist's bid. */
static void spec_bids(Spec *s, const Pos *p)
{
    int i, k;
    for (i = 0; i < p->nbids; i++) {
        int seat = (p->forehand + i) % 3;
        for (k = 0; k < 2; k++) {
            if (s->other[k] != seat) continue;
            if (p->bid[i] == BID_PASS) s->soft_pass[k] = 1;
            else if (p->bid[i] == BID_TAKE) s->soft_solo[k] = 1;
            else if (p->bid[i] == BID_ZOLE) s->soft_solo[k] = 2;
        }
    }
}

/* ------------------------------------------------------------------ */
/* The sampling loop                                                   */
/* ------------------------------------------------------------------ */

#define MAXALT 12

typedef int (*SampleFn)(void *ctx, Rng *r, double *vals);

typedef struct {
    int n;                  /* samples used */
    double mean[MAXALT];
    long long nodes;
    double ms;
} RunStats;

static int64_t budget_end;  /* ns: stop sampling (soft) */
static int fixed_samples;   /* exactly this many (0: by time) */

/* Runs samples until the time share, MaxSamples, or a clear best; returns
 * the best alternative (by mean value), or -1 if no sample finished. */
static int run_samples(int nalt, SampleFn fn, void *ctx, Rng *r, int min_s, RunStats *st)
{
    double sum[MAXALT] = {0}, d2[MAXALT][MAXALT], vals[MAXALT];
    int n = 0, i, k, best = -1, fails = 0;
    int cap = fixed_samples > 0 ? fixed_samples : opt_max_samples;
    int64_t t0 = now_ns();
    memset(d2, 0, sizeof d2);
    memset(hist, 0, sizeof hist);
    nodes = 0;
    aborted = 0;
    while (n < cap) {
        if (fixed_samples == 0 && n > 0 && now_ns() > budget_end) break;
        if (now_ns() > deadline_hard) break;
        if (!fn(ctx, r, vals)) {
            if (aborted) break;
            if (++fails > 50) break;
            continue;
        }
        for (i = 0; i < nalt; i++) {
            sum[i] += vals[i];
            for (k = i + 1; k < nalt; k++) d2[i][k] += (vals[i] - vals[k]) * (vals[i] - vals[k]);
        }
        n++;
        if (fixed_samples == 0 && n >= min_s) {
            int clear = 1;
            best = 0;
            for (i = 1; i < nalt; i++)
                if (sum[i] > sum[best]) best = i;
            for (k = 0; k < nalt && clear; k++) {
                double dm, var, q;
                if (k == best) continue;
                dm = (sum[best] - sum[k]) / n;
                q = (best < k ? d2[best][k] : d2[k][best]) / n;
                var = q - dm * dm;
                if (var < 0) var = 0;
                if (q < 1e-12) continue;          /* identical so far */
                if (!(dm > 0 && dm * dm * n > 9.0 * var)) clear = 0;
            }
            if (clear) break;
        }
    }
    best = -1;
    for (i = 0; i < nalt; i++) {
        st->mean[i] = n ? sum[i] / n : 0;
        if (n && (best < 0 || sum[i] > sum[best])) best = i;
    }
    st->n = n;
    st->nodes = nodes;
    st->ms = (now_ns() - t0) / 1e6;
    return best;
}

/* ------------------------------------------------------------------ */
/* Play                                                                */
/* ------------------------------------------------------------------ */

typedef struct {
    const Pos *p;
    Spec spec;
    int nm, mv[MAXALT];
} PlayCtx;

/* Loads a sample into the search state: others' hands, my hand, trick. */
static void load_state(const Pos *p, const Spec *s, const Deal *d)
{
    int i;
    SH[p->me] = p->hand;
    SH[s->other[0]] = d->h[0];
    SH[s->other[1]] = d->h[1];
    Stn = p->tn;
    for (i = 0; i < p->tn; i++) Stab[i] = p->table[i];
    Sleader = p->leader;
    Sinplay = SH[0] | SH[1] | SH[2];
    for (i = 0; i < p->tn; i++) Sinplay |= BIT(p->table[i]);
}

static int play_sample(void *vctx, Rng *r, double *vals)
{
    PlayCtx *c = (PlayCtx *)vctx;
    const Pos *p = c->p;
    Deal d;
    int i;
    if (!sample_deal(&c->spec, r, &d)) return 0;
    new_gen();
    load_state(p, &c->spec, &d);
    if (p->contract == CT_TABLE) {
        Tme = p->me;
        Tbypts = pay.r->tableloser_points;
        for (i = 0; i < 3; i++) {
            Ttr[i] = p->trk[i];
            Tpt[i] = p->ptsw[i];
        }
        if (popc(p->hand) >= 8) {
            /* First trick: the exact paranoid search is too slow here (~10^7
             * nodes); use the proxy: the fewest tricks this seat can be held
             * to (the others trying to give it tricks), mapped to an
             * estimated payoff by its total trick count. */
            static const double EST[9] = {1.2, 1.2, 1.0, 0.2, -1.5, -2, -2, -2, -2};
            Ssol = p->me;
            Sinv = 1;
            for (i = 0; i < c->nm; i++) {
                int v = tab_trk(c->mv[i]);
                if (aborted) return 0;
                v += p->trk[p->me];
                vals[i] = EST[v > 8 ? 8 : v] * pay.r->tablepay;
            }
            Sinv = 0;
            return 1;
        }
        for (i = 0; i < c->nm; i++) {
            int v = tab_value(c->mv[i]);
            if (aborted) return 0;
            vals[i] = v * (double)pay.r->tablepay;
        }
        return 1;
    }
    Ssol = p->soloist;
    if (p->contract == CT_SMALL) {
        for (i = 0; i < c->nm; i++) {
            int any = small_any(c->mv[i]);
            if (aborted) return 0;
            vals[i] = solo_payoff(CT_SMALL, Ssol, any);
        }
        return 1;
    }
    {
        int base = p->ptsw[Ssol], all = p->trk[Ssol] == p->ndone, none = p->trk[Ssol] == 0;
        if (p->contract == CT_TAKE) base += mpts(p->me == Ssol && p->buried ? p->buried : d.pile);
        for (i = 0; i < c->nm; i++) {
            int band = solve_band(base, all, none, c->mv[i]);
            if (band < 0) return 0;
            vals[i] = solo_payoff(p->contract, Ssol, band);
            if (opt_refine > 0 && band >= 2 && band <= 4) {
                /* Inside the band: is the soloist in its upper half?  Real
                 * opponents err, so the upper half is nearer the better band
                 * and the lower half nearer the worse one. */
                static const int MID[5] = {0, 0, 76, 46, 15};
                int up = test_pts(MID[band] - base, c->mv[i]);
                double q = opt_refine / 100.0;
                if (aborted) return 0;
                if (up) vals[i] += q * (solo_payoff(p->contract, Ssol, band - 1) - vals[i]);
                else vals[i] -= q * (vals[i] - solo_payoff(p->contract, Ssol, band + 1));
            }
        }
    }
    return 1;
}

/* Fills the sampling spec of a play position; 0 if inconsistent. */
static int play_spec(const Pos *p, Spec *s)
{
    int k, i;
    uint32_t known = p->hand | p->playedby[0] | p->playedby[1] | p->playedby[2] | p->buried;
    memset(s, 0, sizeof *s);
    s->unknown = ALLCARDS & ~known;
    s->other[0] = (p->me + 1) % 3;
    s->other[1] = (p->me + 2) % 3;
    for (k = 0; k < 2; k++) {
        s->need[k] = p->held[s->other[k]];
        s->playedby[k] = p->playedby[s->other[k]];
        for (i = 0; i < 4; i++) s->voidc[k][i] = p->voidc[s->other[k]][i];
    }
    s->pile_n = popc(s->unknown) - s->need[0] - s->need[1];
    if (s->pile_n != 0 && s->pile_n != 2) return 0;
    s->lzf = pay.r->lzf;
    spec_bids(s, p);
    s->soft_pile = p->contract == CT_TAKE && p->soloist != p->me;
    return 1;
}

static int decide_play(const Go *g, Rng *r, RunStats *st)
{
    Pos p;
    PlayCtx c;
    int i, li[MAXLIST], nl = g->legal.n, best;
    uint32_t legal = 0;
    if (!build_pos(g, &p)) return 0;
    if (g->contract != CT_TAKE && g->contract != CT_ZOLE && g->contract != CT_SMALL &&
        g->contract != CT_TABLE)
        return 0;
    if (g->contract != CT_TABLE && (p.soloist < 0)) return 0;
    for (i = 0; i < nl; i++) {
        li[i] = parse_card(g->legal.raw[i]);
        if (li[i] < 0 || !(p.hand & BIT(li[i]))) return 0;
        legal |= BIT(li[i]);
    }
    if (nl == 1) return 0;
    if (!play_spec(&p, &c.spec)) return 0;
    c.p = &p;
    /* Root moves: legal cards, one per class of equivalent cards (adjacent
     * in their category with nothing between but my cards and cards gone
     * in completed tricks, and of equal points). */
    c.nm = 0;
    {
        int prev = -1;
        uint32_t m;
        for (m = legal; m; m &= m - 1) {
            int cd = __builtin_ctz(m);
            if (prev >= 0 && CAT[prev] == CAT[cd] && PTS[prev] == PTS[cd] &&
                (between(prev, cd) & ~(p.gone | p.hand)) == 0) {
                prev = cd;
                continue;
            }
            prev = cd;
            if (c.nm < MAXALT) c.mv[c.nm++] = cd;
        }
    }
    if (c.nm == 1) {
        best = 0;
    } else {
        /* A zole is worth five times a take: twice the samples. */
        int save = opt_max_samples;
        if (g->contract == CT_ZOLE) opt_max_samples = save > 50000 ? save : 2 * save;
        best = run_samples(c.nm, play_sample, &c, r, 16, st);
        opt_max_samples = save;
        if (best < 0) return 0;
    }
    for (i = 0; i < nl; i++)
        if (li[i] == c.mv[best]) return i;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Burying                                                             */
/* ------------------------------------------------------------------ */

typedef struct {
    int me, forehand;
    uint32_t h10;
    Spec spec;
    int nc, ca[MAXALT], cb[MAXALT];
} BuryCtx;

static int bury_sample(void *vctx, Rng *r, double *vals)
{
    BuryCtx *c = (BuryCtx *)vctx;
    Deal d;
    int i;
    if (!sample_deal(&c->spec, r, &d)) return 0;
    new_gen();
    Ssol = c->me;
    for (i = 0; i < c->nc; i++) {
        uint32_t pair = BIT(c->ca[i]) | BIT(c->cb[i]);
        int band;
        SH[c->me] = c->h10 & ~pair;
        SH[c->spec.other[0]] = d.h[0];
        SH[c->spec.other[1]] = d.h[1];
        Stn = 0;
        Sleader = c->forehand;
        Sinplay = SH[0] | SH[1] | SH[2];
        band = solve_band(mpts(pair), 1, 1, -1);
        if (band < 0) return 0;
        vals[i] = solo_payoff(CT_TAKE, c->me, band);
    }
    return 1;
}

/* Chooses the two cards to bury (indices into legal); 0 if odd. */
static int decide_bury(const Go *g, Rng *r, int *ia, int *ib, RunStats *st)
{
    BuryCtx c;
    int i, k, li[MAXLIST], best;
    Pos p;
    memset(&c, 0, sizeof c);
    memset(&p, 0, sizeof p);
    if (g->legal.n != 10 || g->seat < 0 || g->forehand < 0 || g->bids.bad) return 0;
    for (i = 0; i < 10; i++) {
        li[i] = parse_card(g->legal.raw[i]);
        if (li[i] < 0 || (c.h10 & BIT(li[i]))) return 0;
        c.h10 |= BIT(li[i]);
    }
    c.me = g->seat;
    c.forehand = g->forehand;
    c.nc = bury_candidates(c.h10, 6, c.ca, c.cb);
    if (c.nc < 1) return 0;
    memset(&c.spec, 0, sizeof c.spec);
    c.spec.unknown = ALLCARDS & ~c.h10;
    c.spec.other[0] = (c.me + 1) % 3;
    c.spec.other[1] = (c.me + 2) % 3;
    c.spec.need[0] = c.spec.need[1] = 8;
    c.spec.lzf = pay.r->lzf;
    p.forehand = g->forehand;
    p.nbids = g->bids.n > 3 ? 3 : g->bids.n;
    for (i = 0; i < p.nbids; i++) p.bid[i] = g->bids.v[i];
    spec_bids(&c.spec, &p);
    {
        /* Burying solves 6 candidates per sample: half the sample cap. */
        int save = opt_max_samples;
        opt_max_samples = save > 1 ? save / 2 : 1;
        best = c.nc == 1 ? 0 : run_samples(c.nc, bury_sample, &c, r, 12, st);
        opt_max_samples = save;
    }
    if (best < 0) best = 0;
    *ia = *ib = -1;
    for (k = 0; k < 10; k++) {
        if (li[k] == c.ca[best]) *ia = k;
        if (li[k] == c.cb[best]) *ib = k;
    }
    return *ia >= 0 && *ib >= 0 && *ia != *ib;
}

/* ------------------------------------------------------------------ */
/* Bidding                                                             */
/* ------------------------------------------------------------------ */

typedef struct {
    int me, forehand;
    uint32_t hand;
    Spec spec;           /* others' hands and the talon (pile) */
    int nalt, alt[4];    /* bids evaluated */
    double margin[4];    /* subtracted from each bid's value */
    int ktake;           /* bury candidates solved per take sample */
} BidCtx;

static int bid_sample(void *vctx, Rng *r, double *vals)
{
    BidCtx *c = (BidCtx *)vctx;
    Deal d;
    int i;
    if (!sample_deal(&c->spec, r, &d)) return 0;
    new_gen();
    Ssol = c->me;
    for (i = 0; i < c->nalt; i++) {
        double v = 0;
        int b = c->alt[i];
        SH[c->spec.other[0]] = d.h[0];
        SH[c->spec.other[1]] = d.h[1];
        Stn = 0;
        Sleader = c->forehand;
        if (b == BID_TAKE) {
            uint32_t h10 = c->hand | d.pile;
            int ca[8], cb[8], nc = bury_candidates(h10, c->ktake, ca, cb), k;
            v = -1e9;
            for (k = 0; k < nc; k++) {
                uint32_t pair = BIT(ca[k]) | BIT(cb[k]);
                int band;
                SH[c->me] = h10 & ~pair;
                Sinplay = SH[0] | SH[1] | SH[2];
                band = solve_band(mpts(pair), 1, 1, -1);
                if (band < 0) return 0;
                if (solo_payoff(CT_TAKE, c->me, band) > v) v = solo_payoff(CT_TAKE, c->me, band);
            }
        } else if (b == BID_ZOLE) {
            int band;
            SH[c->me] = c->hand;
            Sinplay = SH[0] | SH[1] | SH[2];
            band = solve_band(opt_zole_bonus, 1, 1, -1);
            if (band < 0) return 0;
            v = solo_payoff(CT_ZOLE, c->me, band);
        } else if (b == BID_SMALL) {
            int any;
            SH[c->me] = c->hand;
            Sinplay = SH[0] | SH[1] | SH[2];
            any = small_any(-1);
            if (aborted) return 0;
            v = solo_payoff(CT_SMALL, c->me, any);
        }
        vals[i] = v - c->margin[i];
    }
    return 1;
}

/* Returns the index in legal of the bid. */
static int decide_bid(const Go *g, Rng *r, RunStats *st)
{
    BidCtx c;
    Pos p;
    int i, idx[4] = {-1, -1, -1, -1}, best;
    memset(&c, 0, sizeof c);
    memset(&p, 0, sizeof p);
    if (g->hand.bad || g->hand.n != 8 || g->seat < 0 || g->forehand < 0 || g->bids.bad)
        return 0;
    for (i = 0; i < g->legal.n; i++) {
        int b = parse_bid(g->legal.raw[i]);
        if (b != BID_BAD && idx[b] < 0) idx[b] = i;
    }
    if (idx[BID_PASS] < 0) return 0;
    for (i = 0; i < 8; i++) c.hand |= BIT(g->hand.v[i]);
    if (popc(c.hand) != 8) return idx[BID_PASS];
    c.me = g->seat;
    c.forehand = g->forehand;
    c.ktake = 2;
    c.nalt = 0;
    {
        /* Margins: percent of the soloist's ordinary win (twice the amount). */
        const Rules *R = pay.r;
        double m = (R->lzf ? opt_bid_margin_lzf : opt_bid_margin) / 100.0;
        c.alt[c.nalt] = BID_PASS;
        c.margin[c.nalt++] = 0;
        if (idx[BID_TAKE] >= 0) {
            c.alt[c.nalt] = BID_TAKE;
            c.margin[c.nalt++] = m * 2 * R->take[2];
        }
        if (idx[BID_ZOLE] >= 0) {
            c.alt[c.nalt] = BID_ZOLE;
            c.margin[c.nalt++] = m * 2 * R->zole[2];
        }
        if (idx[BID_SMALL] >= 0) {
            c.alt[c.nalt] = BID_SMALL;
            c.margin[c.nalt++] = m * 2 * R->small[0];
        }
    }
    if (c.nalt == 1) return idx[BID_PASS];
    c.spec.unknown = ALLCARDS & ~c.hand;
    c.spec.other[0] = (c.me + 1) % 3;
    c.spec.other[1] = (c.me + 2) % 3;
    c.spec.need[0] = c.spec.need[1] = 8;
    c.spec.pile_n = 2;
    c.spec.lzf = pay.r->lzf;
    p.forehand = g->forehand;
    p.nbids = g->bids.n > 3 ? 3 : g->bids.n;
    for (i = 0; i < p.nbids; i++) p.bid[i] = g->bids.v[i];
    spec_bids(&c.spec, &p);
    best = run_samples(c.nalt, bid_sample, &c, r, 16, st);
    if (best < 0) return idx[BID_PASS];
    return idx[c.alt[best]];
}

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

static const char *const PH_NAME[] = {"-", "bid", "bury", "play", "?"};

static void answer_go(int ntok)
{
    Go g;
    char msg[256];
    Rng r;
    RunStats st;
    int64_t t0 = now_ns();
    uint64_t h = go_hash(ntok);
    Rules rl;
    parse_go(&g, ntok);
    memset(&st, 0, sizeof st);
    if (!g.id || strlen(g.id) > 40) return;
    if (!g.has_legal || g.legal.n < 1) {
        if (g.phase == PH_BURY && g.hand.n >= 2 && !g.hand.bad)
            snprintf(msg, sizeof msg, "action %s %s %s", g.id, g.hand.raw[0], g.hand.raw[1]);
        else if (g.phase == PH_PLAY && g.hand.n >= 1 && !g.hand.bad)
            snprintf(msg, sizeof msg, "action %s %s", g.id, g.hand.raw[0]);
        else
            snprintf(msg, sizeof msg, "action %s pass", g.id);
        out(msg);
        return;
    }
    /* Rules: from the last newdeal, else the preset's defaults. */
    if (rules_seen) rl = rules_now;
    else rules_default(&rl, g.lzf == 1);
    pay.r = &rl;
    pay.me = g.seat;
    pay.common = g.commonpules;
    pay.nppules = g.ppules.bad ? 0 : g.ppules.n;
    pay.ppules = g.ppules.v;
    /* RNG: fixed seed -> from (Seed, position); else time and pid too. */
    r.s = opt_seed > 0 ? mix64((uint64_t)opt_seed * 0x9e3779b97f4a7c15ULL ^ h)
                       : mix64((uint64_t)now_ns() ^ ((uint64_t)getpid() << 32) ^ h);
    /* Time: a share of `time`, more for early decisions under a clock,
     * never more than half the clock; a hard deadline for emergencies. */
    {
        long T = g.time_ms > 0 ? g.time_ms : 1000;
        double share = T * opt_time_use / 100.0, hard = T * 0.92 - 15;
        int early = g.phase != PH_PLAY || g.played.n < 6;
        if (g.has_clock) {
            double half = g.clock_ms / 2.0;
            if (early) share *= 2;
            if (share > half) share = half;
            if (hard > g.clock_ms * 0.6) hard = g.clock_ms * 0.6;
        }
        share -= 5;
        if (share < 1) share = 1;
        if (hard < 2) hard = 2;
        if (share > hard) share = hard;
        budget_end = t0 + (int64_t)(share * 1e6);
        deadline_hard = t0 + (int64_t)(hard * 1e6);
        fixed_samples = opt_samples;
#ifdef SEARCHBOT_ORACLE
        /* One sample is the deal itself; a take's defenders sample the bury. */
        if (or_on)
            fixed_samples = g.contract == CT_TAKE && g.phase == PH_PLAY && g.soloist != g.seat ? 6 : 1;
#endif
    }
    if (g.phase == PH_BURY) {
        int a = 0, b = 1;
        if (g.legal.n >= 2) {
            if (g.legal.bad || !decide_bury(&g, &r, &a, &b, &st)) {
                a = 0;
                b = 1;
            }
            snprintf(msg, sizeof msg, "action %s %.8s %.8s", g.id, g.legal.raw[a], g.legal.raw[b]);
        } else {
            snprintf(msg, sizeof msg, "action %s %.8s", g.id, g.legal.raw[0]);
        }
    } else {
        int i = 0;
        if (g.phase == PH_BID && !g.legal.bad) i = decide_bid(&g, &r, &st);
        else if (g.phase == PH_PLAY && !g.legal.bad) i = decide_play(&g, &r, &st);
        if (i < 0 || i >= g.legal.n) i = 0;
        snprintf(msg, sizeof msg, "action %s %.20s", g.id, g.legal.raw[i]);
    }
    out(msg);
    if (debug) {
        int i;
        fprintf(stderr, "SB phase %s played %d samples %d nodes %lld ms %.2f total %.2f means",
                PH_NAME[g.phase < 5 ? g.phase : 4], g.played.n, st.n, st.nodes, st.ms,
                (now_ns() - t0) / 1e6);
        for (i = 0; i < MAXALT && (st.mean[i] != 0 || i < 2); i++) fprintf(stderr, " %.2f", st.mean[i]);
        fprintf(stderr, " -> %s\n", msg);
    }
}

static void read_newdeal(int ntok)
{
    int i;
    Rules r;
    int lzf = 0;
    for (i = 1; i + 1 < ntok; i++)
        if (strcmp(tok[i], "rules") == 0) lzf = ieq(tok[i + 1], "lzf");
    rules_default(&r, lzf);
    for (i = 1; i + 1 < ntok; i++) {
        const char *k = tok[i], *v = tok[i + 1];
        int tmp[6];
        if (strcmp(k, "take") == 0) {
            if (parse_ints(v, tmp, 6)) memcpy(r.take, tmp, sizeof r.take);
        } else if (strcmp(k, "zole") == 0) {
            if (parse_ints(v, tmp, 6)) memcpy(r.zole, tmp, sizeof r.zole);
        } else if (strcmp(k, "smallzole") == 0) {
            if (parse_ints(v, tmp, 2)) memcpy(r.small, tmp, sizeof r.small);
        } else if (strcmp(k, "allpass") == 0) {
            r.allpass_table = ieq(v, "table");
        } else if (strcmp(k, "tableloser") == 0) {
            r.tableloser_points = ieq(v, "points");
        } else if (strcmp(k, "tablepayment") == 0) {
            r.tablepay = (int)parse_long(v, 2);
        } else if (strcmp(k, "commonpulebonus") == 0) {
            r.cpb = (int)parse_long(v, 1);
        } else if (strcmp(k, "personalpulebonus") == 0) {
            r.ppb = (int)parse_long(v, 2);
        } else if (strcmp(k, "pulestakeonly") == 0) {
            r.ptakeonly = ieq(v, "true");
        }
    }
    rules_now = r;
    rules_seen = 1;
}

static void set_option(int ntok)
{
    int i, vi = -1;
    char name[128] = "";
    long v;
    char *end;
    for (i = 1; i < ntok; i++)
        if (strcmp(tok[i], "value") == 0) {
            vi = i;
            break;
        }
    if (ntok < 3 || strcmp(tok[1], "name") != 0 || vi < 3 || vi + 1 >= ntok) return;
    for (i = 2; i < vi; i++) {
        if (strlen(name) + strlen(tok[i]) + 2 > sizeof name) return;
        if (i > 2) strcat(name, " ");
        strcat(name, tok[i]);
    }
    v = strtol(tok[vi + 1], &end, 10);
    if (end == tok[vi + 1] || *end != '\0') return;
#define CLAMP(x, lo, hi) ((x) < (lo) ? (lo) : (x) > (hi) ? (hi) : (x))
    if (strcmp(name, "Samples") == 0) opt_samples = (int)CLAMP(v, 0, 100000);
    else if (strcmp(name, "Seed") == 0) opt_seed = CLAMP(v, 0, 2000000000L);
    else if (strcmp(name, "MaxSamples") == 0) opt_max_samples = (int)CLAMP(v, 1, 100000);
    else if (strcmp(name, "TimeUse") == 0) opt_time_use = (int)CLAMP(v, 1, 100);
    else if (strcmp(name, "BidMargin") == 0) opt_bid_margin = (int)CLAMP(v, -200, 200);
    else if (strcmp(name, "BidMarginLzf") == 0) opt_bid_margin_lzf = (int)CLAMP(v, -200, 200);
    else if (strcmp(name, "ZoleBonus") == 0) opt_zole_bonus = (int)CLAMP(v, 0, 60);
    else if (strcmp(name, "Refine") == 0) opt_refine = (int)CLAMP(v, 0, 50);
}

static int read_line(void)
{
    size_t n;
    int complete;
    if (!fgets(line_buf, sizeof line_buf, stdin)) return 0;
    n = strlen(line_buf);
    complete = n > 0 && line_buf[n - 1] == '\n';
    if (!complete && n == sizeof line_buf - 1) {
        int ch;
        while ((ch = getchar()) != EOF && ch != '\n') {
        }
        return -1;
    }
    if (complete) line_buf[--n] = '\0';
    if (n > 0 && line_buf[n - 1] == '\r') line_buf[--n] = '\0';
    return n > MAXLINE ? -1 : 1;
}

/* Line-buffered output, the card tables and the two transposition tables:
 * what both the bot and the solver need first.  0 when memory is short. */
static int setup(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    init_tables();
    tt = (TTE *)calloc((size_t)1 << TT_BITS, sizeof(TTE));
    tt2 = (TTE2 *)calloc((size_t)1 << TT2_BITS, sizeof(TTE2));
    return tt && tt2;
}

#ifdef SEARCHBOT_SOLVER
/* ------------------------------------------------------------------ */
/* Solver mode: the open-card values of positions, for zole-arena analyze */
/* ------------------------------------------------------------------ */

/* Built with -DSEARCHBOT_SOLVER this file is no bot but the exact solver
 * behind `zole-arena analyze` (zole_arena/analysis/solver.py speaks to it).
 * One request per line, one answer per line:
 *
 *   CTX KIND SEAT LEADER H0 H1 H2 TRICK BASE ALL NONE TR0 TR1 TR2 PT0 PT1 PT2 BYPTS MOVES
 *
 * CTX: any word; the transposition tables are kept while it stays the same
 * (the caller changes it whenever who-holds-what or the soloist changes:
 * the entries of take, zole and small zole are keyed by the cards in play,
 * the leader and the search; the table game's by the seat valued too).
 * KIND: P (take or zole: the soloist's band), S (small zole: 0 won, 1
 * lost), T (table game: SEAT's paranoid outcome, -2..2 table payments), B
 * (a take before the bury: the soloist SEAT holds 10 cards; the answer is
 * the best band over every pair he may bury, and MOVES must be '-'), A (the
 * same position: the band of each of the 45 pairs, pairs (i, j), i < j, of
 * his cards in canonical order, lexicographically), G (the table game's
 * test: 1 when SEAT's paranoid outcome is at least BASE - 2, else 0; one
 * null-window search where T needs two or three, for a caller that only
 * compares the table game with a contract).
 * SEAT: the soloist (P, S) or the seat valued (T, G).  H0..H2: the seats'
 * hands as hex masks (canonical card order); TRICK: the cards on the table
 * in play order, comma-separated card numbers, or '-'; BASE: the soloist's
 * points so far (tricks won, a take's buried cards; G: the threshold + 2); ALL / NONE: 1 when
 * the soloist has won every / no completed trick; TRn / PTn: tricks and
 * points won by each seat (table game); BYPTS: 1 when the table game's
 * loser is found by points only.  MOVES: comma-separated card numbers, each
 * valued as the next card of the seat to move, or '-' for the position as
 * it stands.  Answer: '= V1 V2 ...', or '? reason'. */

static int parse_card_list(char *s, int *out_v, int max)
{
    int n = 0;
    char *end;
    if (strcmp(s, "-") == 0) return 0;
    for (;;) {
        long v = strtol(s, &end, 10);
        if (end == s || v < 0 || v >= NCARDS || n >= max) return -1;
        out_v[n++] = (int)v;
        if (*end == '\0') return n;
        if (*end != ',') return -1;
        s = end + 1;
    }
}

static int parse_mask(const char *s, uint32_t *m)
{
    char *end;
    unsigned long v = strtoul(s, &end, 16);
    if (end == s || *end || v > ALLCARDS) return 0;
    *m = (uint32_t)v;
    return 1;
}

static int parse_small(const char *s, int lo, int hi, int *v)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (end == s || *end || x < lo || x > hi) return 0;
    *v = (int)x;
    return 1;
}

/* Can the soloist, from the state loaded (nothing played, base points
 * buried), reach band `band` or better?  One threshold search. */
static int reaches(int band, int base)
{
    switch (band) {
    case 0: return ab(M_ALL, 0, 1, -1) >= 1;
    case 1: return test_pts(91 - base, -1);
    case 2: return test_pts(61 - base, -1);
    case 3: return test_pts(31 - base, -1);
    case 4: return ab(M_ANY, 0, 1, -1) >= 1;
    default: return 1;
    }
}

/* Cards of a hand that are interchangeable for burying: neighbours in the
 * canonical order (so no card lies between them), of one category and
 * worth the same points.  cls[i] is the first card of card i's run. */
static void bury_classes(const int *cards, int n, int *cls)
{
    int i;
    for (i = 0; i < n; i++) {
        int c = cards[i], p = i > 0 ? cards[i - 1] : -1;
        cls[i] = (p >= 0 && p == c - 1 && CAT[p] == CAT[c] && PTS[p] == PTS[c]) ? cls[i - 1] : c;
    }
}

/* Index of the pair of classes (a, b) in a small table, a <= b. */
#define PAIRKEY(a, b) ((a) < (b) ? (a) * NCARDS + (b) : (b) * NCARDS + (a))

/* The best band the take soloist Ssol (holding 10 cards in SH) reaches
 * over every pair he may bury: the pairs in RuleBot's order of preference,
 * the first solved, each other one only tested against the best so far. */
static int best_bury(int sol)
{
    int pa[45], pb[45], n, i, best = 6, cards[10] = {0}, cls[10], clsof[NCARDS], k = 0;
    static unsigned char seen[NCARDS * NCARDS];
    uint32_t h10 = SH[sol], m;
    for (m = h10; m && k < 10; m &= m - 1) cards[k++] = __builtin_ctz(m);
    bury_classes(cards, k, cls);
    for (i = 0; i < k; i++) clsof[cards[i]] = cls[i];
    memset(seen, 0, sizeof seen);
    n = bury_candidates(h10, 45, pa, pb);
    for (i = 0; i < n && best > 0; i++) {
        uint32_t pair = BIT(pa[i]) | BIT(pb[i]);
        int base = mpts(pair), key = PAIRKEY(clsof[pa[i]], clsof[pb[i]]);
        if (seen[key]) continue; /* an equivalent pair was tried */
        seen[key] = 1;
        SH[sol] = h10 & ~pair;
        Sinplay = SH[0] | SH[1] | SH[2];
        if (best == 6) {
            best = solve_band(base, 1, 1, -1);
        } else if (reaches(best - 1, base)) {
            int b = best - 1;
            while (b > 0 && reaches(b - 1, base)) b--;
            best = b;
        }
    }
    SH[sol] = h10;
    Sinplay = SH[0] | SH[1] | SH[2];
    return best;
}

/* The band of every pair the take soloist Ssol may bury, appended to buf:
 * the best band first (best_bury), then each pair's found by tests from
 * the best band down (one test for a pair as good as the best). */
static void all_buries(int sol, char *buf, int len, size_t size)
{
    int cards[10], cls[10], n = 0, i, j, best = best_bury(sol);
    static signed char known[NCARDS * NCARDS];
    uint32_t h10 = SH[sol], m;
    for (m = h10; m && n < 10; m &= m - 1) cards[n++] = __builtin_ctz(m);
    bury_classes(cards, n, cls);
    memset(known, -1, sizeof known);
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            uint32_t pair = BIT(cards[i]) | BIT(cards[j]);
            int base = mpts(pair), band = best, key = PAIRKEY(cls[i], cls[j]);
            if (known[key] >= 0) {
                band = known[key]; /* an equivalent pair's band */
            } else {
                SH[sol] = h10 & ~pair;
                Sinplay = SH[0] | SH[1] | SH[2];
                while (band < 5 && !reaches(band, base)) band++;
                known[key] = (signed char)band;
            }
            len += snprintf(buf + len, size - (size_t)len, " %d", band);
        }
    SH[sol] = h10;
    Sinplay = SH[0] | SH[1] | SH[2];
}

static void solve_request(int ntok)
{
    static char ctx[256] = "";
    char buf[16 * MAXLIST];
    int kind, seat, leader, trick[3], tn, base, all, none, bypts, moves[MAXLIST], nm, i, len;
    int vals[MAXLIST];
    int tr[3], pt[3];
    uint32_t h[3], seen = 0;
    if (ntok != 19) {
        out("? expected 19 fields");
        return;
    }
    kind = tok[1][0] == 'P' ? 0 : tok[1][0] == 'S' ? 1 : tok[1][0] == 'T' ? 2 : tok[1][0] == 'B' ? 3 : tok[1][0] == 'A' ? 4 : tok[1][0] == 'G' ? 5 : -1;
    if (kind < 0 || tok[1][1] || !parse_small(tok[2], 0, 2, &seat) ||
        !parse_small(tok[3], 0, 2, &leader) || !parse_mask(tok[4], &h[0]) ||
        !parse_mask(tok[5], &h[1]) || !parse_mask(tok[6], &h[2]) ||
        (tn = parse_card_list(tok[7], trick, 3)) < 0 || tn > 2 ||
        !parse_small(tok[8], 0, 120, &base) || !parse_small(tok[9], 0, 1, &all) ||
        !parse_small(tok[10], 0, 1, &none) || !parse_small(tok[17], 0, 1, &bypts) ||
        (nm = parse_card_list(tok[18], moves, MAXLIST)) < 0) {
        out("? malformed request");
        return;
    }
    for (i = 0; i < 3; i++)
        if (!parse_small(tok[11 + i], 0, 8, &tr[i]) || !parse_small(tok[14 + i], 0, 120, &pt[i])) {
            out("? malformed tricks or points");
            return;
        }
    /* The cards must be distinct, the hands sized as the trick requires. */
    for (i = 0; i < 3; i++) {
        if (seen & h[i]) {
            out("? a card is in two hands");
            return;
        }
        seen |= h[i];
    }
    for (i = 0; i < tn; i++) {
        if (seen & BIT(trick[i])) {
            out("? a trick card is also held");
            return;
        }
        seen |= BIT(trick[i]);
    }
    if (kind == 3 || kind == 4) {
        if (tn || nm || popc(h[seat]) != 10 || popc(h[(seat + 1) % 3]) != 8 ||
            popc(h[(seat + 2) % 3]) != 8) {
            out("? a bury request needs 10 cards for the soloist, 8 for the others, no trick");
            return;
        }
    } else {
        /* seats that have played to this trick hold one card fewer */
        int n = popc(h[(leader + tn) % 3]);
        for (i = 0; i < 3; i++)
            if (popc(h[(leader + i) % 3]) != n - (i < tn ? 1 : 0) || n > 8) {
                out("? hand sizes do not fit the trick");
                return;
            }
    }
    {
        int p = (leader + tn) % 3;
        uint32_t legal = h[p];
        if (tn > 0 && (h[p] & CATMASK[CAT[trick[0]]])) legal = h[p] & CATMASK[CAT[trick[0]]];
        if (nm > 0 && !legal) {
            out("? no card to play");
            return;
        }
        for (i = 0; i < nm; i++)
            if (!(legal & BIT(moves[i]))) {
                out("? a move is not legal for the seat to play");
                return;
            }
    }
    if (strlen(tok[0]) >= sizeof ctx || strcmp(ctx, tok[0]) != 0) {
        new_gen();
        memset(hist, 0, sizeof hist);
        snprintf(ctx, sizeof ctx, "%s", tok[0]);
    }
    for (i = 0; i < 3; i++) {
        SH[i] = h[i];
        Ttr[i] = tr[i];
        Tpt[i] = pt[i];
    }
    Stn = tn;
    for (i = 0; i < tn; i++) Stab[i] = trick[i];
    Sleader = leader;
    Sinplay = seen;
    Ssol = seat;
    Sinv = 0;
    Tme = seat;
    Tbypts = bypts;
    aborted = 0;
    deadline_hard = INT64_MAX;
    len = snprintf(buf, sizeof buf, "=");
    if (kind == 3) {
        snprintf(buf + len, sizeof buf - (size_t)len, " %d", best_bury(seat));
        out(buf);
        return;
    }
    if (kind == 4) {
        all_buries(seat, buf, len, sizeof buf);
        out(buf);
        return;
    }
    for (i = 0; i < (nm > 0 ? nm : 1); i++) {
        int force = nm > 0 ? moves[i] : -1, v, j, same = -1;
        /* a card equivalent to one valued before (same category and points, no card in
         * play between them) has its value */
        for (j = 0; j < i && same < 0; j++) {
            int a = moves[j] < force ? moves[j] : force, b = moves[j] < force ? force : moves[j];
            if (CAT[a] == CAT[b] && PTS[a] == PTS[b] && (between(a, b) & Sinplay) == 0) same = j;
        }
        if (same >= 0) {
            len += snprintf(buf + len, sizeof buf - (size_t)len, " %d", vals[same]);
            vals[i] = vals[same];
            continue;
        }
        if (kind == 5) {
            int thr = base - 2;
            v = thr <= -2 ? 1 : thr > 2 ? 0 : ab_tab(thr - 1, thr, force) >= thr;
        } else if (kind == 0) {
            v = solve_band(base, all, none, force);
        } else if (kind == 1) {
            v = small_any(force);
        } else {
            v = tab_value(force);
        }
        vals[i] = v;
        len += snprintf(buf + len, sizeof buf - (size_t)len, " %d", v);
    }
    out(buf);
}

int main(void)
{
    (void)answer_go; /* the bot's side, not used here */
    (void)read_newdeal;
    (void)set_option;
    if (!setup()) return 1;
    for (;;) {
        int r = read_line(), ntok;
        if (r == 0) break;
        if (r < 0) {
            out("? line too long");
            continue;
        }
        ntok = tokenize(line_buf);
        if (ntok == 0) continue;
        if (strcmp(tok[0], "quit") == 0) break;
        solve_request(ntok);
    }
    return 0;
}
#else
int main(void)
{
    char buf[200];
    debug = getenv("ZOLE_BOT_SEARCHBOT_DEBUG") != NULL;
    if (!setup()) return 1;
    for (;;) {
        int r = read_line(), ntok;
        if (r == 0) break;
        if (r < 0) continue;
        ntok = tokenize(line_buf);
        if (ntok == 0) continue;
        if (strcmp(tok[0], "zole") == 0) {
            out("id name SearchBot");
            out("id author zole-arena");
            out("id version 1");
            out("option name Samples type spin default 0 min 0 max 100000");
            out("option name Seed type spin default 0 min 0 max 2000000000");
            snprintf(buf, sizeof buf, "option name MaxSamples type spin default %d min 1 max 100000",
                     opt_max_samples);
            out(buf);
            out("option name TimeUse type spin default 80 min 1 max 100");
            snprintf(buf, sizeof buf, "option name BidMargin type spin default %d min -200 max 200",
                     opt_bid_margin);
            out(buf);
            snprintf(buf, sizeof buf, "option name BidMarginLzf type spin default %d min -200 max 200",
                     opt_bid_margin_lzf);
            out(buf);
            snprintf(buf, sizeof buf, "option name ZoleBonus type spin default %d min 0 max 60",
                     opt_zole_bonus);
            out(buf);
            snprintf(buf, sizeof buf, "option name Refine type spin default %d min 0 max 50",
                     opt_refine);
            out(buf);
            out("zoleok 1");
        } else if (strcmp(tok[0], "isready") == 0) {
            out("readyok");
        } else if (strcmp(tok[0], "setoption") == 0) {
            set_option(ntok);
        } else if (strcmp(tok[0], "newdeal") == 0) {
            read_newdeal(ntok);
        } else if (strcmp(tok[0], "go") == 0) {
            answer_go(ntok);
        } else if (strcmp(tok[0], "quit") == 0) {
            break;
        }
    }
    return 0;
}
#endif /* SEARCHBOT_SOLVER */
