/*
 * zolebot.c - CGreedy, a greedy Zole bot for the zole-arena bot protocol v1.
 *
 * One file, C99, libc only.  Build:
 *     cc -std=c99 -O2 -Wall -Wextra -o zolebot zolebot.c
 *
 * The bot is stateless: every decision is taken from the `go` line alone
 * (hand, played cards, trick winners, forehand, contract, soloist, legal).
 * Events (newdeal, bid, card, trick, result) are ignored.  Whenever the
 * request looks odd (missing or malformed fields), the bot answers the first
 * legal item (the first two while burying), so it never answers illegally.
 */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Cards                                                               */
/* ------------------------------------------------------------------ */

#define NCARDS 26
#define TRUMP 3 /* category of trumps; plain suits are 0 (C), 1 (S), 2 (H) */

/* Canonical order, strongest first: index 0 = QC ... 25 = 9H. */
static const char *const CARD_NAME[NCARDS] = {
    "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D",
    "7D", "AC", "TC", "KC", "9C", "AS", "TS", "KS", "9S", "AH", "TH", "KH", "9H"};

static int cat_of(int c) { return c < 14 ? TRUMP : (c - 14) / 4; }

static int points_of(int c)
{
    switch (CARD_NAME[c][0]) {
    case 'A': return 11;
    case 'T': return 10;
    case 'K': return 4;
    case 'Q': return 3;
    case 'J': return 2;
    default: return 0;
    }
}

/* Trump rank: 13 for QC down to 0 for 7D; -1 for plain cards. */
static int trump_rank(int c) { return c < 14 ? 13 - c : -1; }

/* Plain rank inside its suit: 3 for A, 2 for T, 1 for K, 0 for 9. */
static int plain_rank(int c) { return c < 14 ? -1 : 3 - (c - 14) % 4; }

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

/* Does card a beat the card b that is currently winning a trick led in
 * category led?  (Within a category a lower index is stronger.) */
static int beats(int a, int b, int led)
{
    int ca = cat_of(a), cb = cat_of(b);
    if (ca == TRUMP) return cb != TRUMP || a < b;
    if (cb == TRUMP || ca != led) return 0;
    if (cb != led) return 1;
    return a < b;
}

/* Position (0..n-1) of the winning card among n cards in play order. */
static int trick_best(const int *cards, int n)
{
    int best = 0, i;
    for (i = 1; i < n; i++)
        if (beats(cards[i], cards[best], cat_of(cards[0]))) best = i;
    return best;
}

/* How costly a card is to give up: points first, trumps are kept. */
static int cost_of(int c)
{
    if (cat_of(c) == TRUMP) return 10 * points_of(c) + 50 + 10 * trump_rank(c);
    return 10 * points_of(c) + plain_rank(c);
}

/* ------------------------------------------------------------------ */
/* Lines and tokens                                                    */
/* ------------------------------------------------------------------ */

#define MAXLINE 65536          /* longest accepted line, without its end */
#define MAXTOK (MAXLINE / 2 + 2)
#define MAXLIST 64

static char line_buf[MAXLINE + 3]; /* the line, \r, \n and NUL */
static char *tok[MAXTOK];
static int aggression = 50;

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

enum { PH_NONE, PH_BID, PH_BURY, PH_PLAY, PH_OTHER };
enum { CT_NONE, CT_TAKE, CT_ZOLE, CT_SMALL, CT_TABLE, CT_OTHER };

typedef struct {
    int n;         /* number of items */
    int bad;       /* some item could not be parsed, or too many */
    char *raw[MAXLIST];
    int v[MAXLIST];
} List;

typedef struct {
    const char *id;
    int phase, contract;
    int seat, dealer, forehand, soloist; /* -1 if missing or bad */
    List hand, buried, played, winners, legal;
    int has_hand, has_played, has_winners, has_legal;
} Go;

static const char *const GO_KEYS[] = {
    "id", "time", "phase", "deal", "seat", "dealer", "forehand", "rules", "hand", "scores",
    "commonpules", "personalpules", "bids", "contract", "soloist", "talon", "buried",
    "played", "winners", "legal", NULL};

static int is_go_key(const char *s)
{
    int i;
    /* Keys are lowercase words: a value (a number, "-", a list, a card) is rejected at its
     * first character or its first comma, without comparing it with every key. */
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

/* Splits a comma list in place.  kind: 0 raw only, 1 cards, 2 seats. */
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
            l->v[l->n] = kind == 1 ? parse_card(s) : kind == 2 ? parse_seat(s) : 0;
            if (kind && l->v[l->n] < 0) l->bad = 1;
            l->n++;
        }
        if (!comma) break;
        s = comma + 1;
    }
}

static void parse_go(Go *g, int ntok)
{
    int i;
    memset(g, 0, sizeof *g);
    g->seat = g->dealer = g->forehand = g->soloist = -1;
    for (i = 1; i < ntok; i++) {
        const char *k = tok[i];
        char *v = NULL;
        if (!is_go_key(k)) continue; /* unknown token: skip it alone */
        if (i + 1 < ntok && !is_go_key(tok[i + 1])) v = tok[++i];
        if (strcmp(k, "id") == 0) {
            g->id = v;
        } else if (strcmp(k, "phase") == 0) {
            g->phase = !v ? PH_NONE : ieq(v, "bid") ? PH_BID : ieq(v, "bury") ? PH_BURY
                     : ieq(v, "play") ? PH_PLAY : PH_OTHER;
        } else if (strcmp(k, "contract") == 0) {
            g->contract = !v || strcmp(v, "-") == 0 ? CT_NONE : ieq(v, "take") ? CT_TAKE
                        : ieq(v, "zole") ? CT_ZOLE : ieq(v, "smallzole") ? CT_SMALL
                        : ieq(v, "table") ? CT_TABLE : CT_OTHER;
        } else if (strcmp(k, "seat") == 0) {
            g->seat = parse_seat(v);
        } else if (strcmp(k, "dealer") == 0) {
            g->dealer = parse_seat(v);
        } else if (strcmp(k, "forehand") == 0) {
            g->forehand = parse_seat(v);
        } else if (strcmp(k, "soloist") == 0) {
            g->soloist = parse_seat(v);
        } else if (strcmp(k, "hand") == 0) {
            parse_list(&g->hand, v, 1);
            g->has_hand = v != NULL;
        } else if (strcmp(k, "buried") == 0) {
            parse_list(&g->buried, v, 1);
        } else if (strcmp(k, "played") == 0) {
            parse_list(&g->played, v, 1);
            g->has_played = v != NULL;
        } else if (strcmp(k, "winners") == 0) {
            parse_list(&g->winners, v, 2);
            g->has_winners = v != NULL;
        } else if (strcmp(k, "legal") == 0) {
            parse_list(&g->legal, v, 0);
            g->has_legal = v != NULL;
        }
    }
    if (g->forehand < 0 && g->dealer >= 0) g->forehand = (g->dealer + 1) % 3;
}

/* ------------------------------------------------------------------ */
/* Bidding                                                             */
/* ------------------------------------------------------------------ */

/* Strength of a hand for playing alone: trumps (high ones count more),
 * plain aces, and voids when there are enough trumps. */
static double hand_strength(const int *h, int n)
{
    static const double TW[14] = {4.0, 3.5, 3.0, 3.0, 2.5, 2.5, 2.0, 2.0,
                                  1.5, 1.5, 1.2, 1.0, 1.0, 1.0};
    int suit[3][4] = {{0}}, trumps = 0, i, s;
    double st = 0.0;
    for (i = 0; i < n; i++) {
        int c = h[i];
        if (c < 0 || c >= NCARDS) continue;
        if (c < 14) {
            st += TW[c];
            trumps++;
        } else {
            suit[cat_of(c)][3 - plain_rank(c)] = 1;
        }
    }
    for (s = 0; s < 3; s++) {
        int cnt = suit[s][0] + suit[s][1] + suit[s][2] + suit[s][3];
        if (suit[s][0]) st += 2.0;                  /* ace */
        if (suit[s][0] && suit[s][1]) st += 0.5;    /* ace-ten */
        if (!suit[s][0] && suit[s][1]) st -= 0.5;   /* unguarded ten */
        if (cnt == 0 && trumps >= 4) st += 0.75;    /* void: can trump */
    }
    return st;
}

/* How likely a hand is to take a trick (for small zole): lower is safer. */
static double hand_danger(const int *h, int n, int *hopeless)
{
    static const double TD[14] = {99, 6, 5, 5, 3.5, 3, 2.5, 2, 2, 1.5, 1, 0.5, 0.3, 0.3};
    static const double PD[4] = {2.5, 1.5, 0.6, 0.15}; /* A T K 9 */
    double d = 0.0;
    int i;
    *hopeless = 0;
    for (i = 0; i < n; i++) {
        int c = h[i];
        if (c < 0 || c >= NCARDS) continue;
        if (c < 14) {
            d += TD[c];
            if (c <= 5) *hopeless = 1; /* QC..JS: far too likely to win */
        } else {
            d += PD[3 - plain_rank(c)];
            if (plain_rank(c) == 3) *hopeless = 1; /* a plain ace */
        }
    }
    return d;
}

static const char *decide_bid(const Go *g)
{
    int i, can_pass = -1, can_take = -1, can_zole = -1, can_small = -1, hopeless = 0;
    double shift = (50 - aggression) * 3.0 / 50.0; /* +3 timid .. -3 bold */
    double st, danger;
    for (i = 0; i < g->legal.n; i++) {
        const char *b = g->legal.raw[i];
        if (ieq(b, "pass") && can_pass < 0) can_pass = i;
        else if (ieq(b, "take") && can_take < 0) can_take = i;
        else if (ieq(b, "zole") && can_zole < 0) can_zole = i;
        else if (ieq(b, "smallzole") && can_small < 0) can_small = i;
    }
    if (g->hand.bad || g->hand.n != 8) return can_pass >= 0 ? g->legal.raw[can_pass] : g->legal.raw[0];
    st = hand_strength(g->hand.v, g->hand.n);
    danger = hand_danger(g->hand.v, g->hand.n, &hopeless);
    {
        int trumps = 0;
        for (i = 0; i < g->hand.n; i++) trumps += cat_of(g->hand.v[i]) == TRUMP;
        if (can_zole >= 0 && trumps >= 5 && st >= 20.0 + shift) return g->legal.raw[can_zole];
        if (can_take >= 0 && st >= 12.5 + shift) return g->legal.raw[can_take];
        if (can_small >= 0 && !hopeless && trumps <= 3 && danger <= 3.0 - shift / 2.0)
            return g->legal.raw[can_small];
    }
    if (can_pass >= 0) return g->legal.raw[can_pass];
    return g->legal.raw[0];
}

/* ------------------------------------------------------------------ */
/* Burying                                                             */
/* ------------------------------------------------------------------ */

/* Value of what is kept in plain suit s, given the 10 cards held. */
static int suit_value(int s, const int *keep, const int *mine)
{
    int first = 14 + 4 * s, c, opp = 0, kept = 0, masters = 0, v = 0;
    for (c = first; c < first + 4; c++) {
        if (!mine[c]) opp++;
        if (keep[c]) kept++;
    }
    if (kept == 0) return 6; /* a void lets the soloist trump */
    for (c = first; c < first + 4; c++) {
        int h = 0, d;
        if (!keep[c]) continue;
        for (d = first; d < c; d++) h += !mine[d];
        if (h == 0 && masters < opp) {
            v += points_of(c) + (masters == 0 ? 8 : 3);
            masters++;
        } else {
            v -= points_of(c) + 2;
        }
    }
    return v;
}

static void decide_bury(const Go *g, int *pa, int *pb)
{
    int mine[NCARDS] = {0}, i, j, plain = 0, need_trumps, best = -1000000;
    const List *L = &g->legal;
    int cards[MAXLIST];
    *pa = 0;
    *pb = 1;
    for (i = 0; i < L->n; i++) {
        cards[i] = parse_card(L->raw[i]);
        if (cards[i] < 0 || mine[cards[i]]) return; /* odd: first two */
        mine[cards[i]] = 1;
        plain += cat_of(cards[i]) != TRUMP;
    }
    need_trumps = plain >= 2 ? 0 : 2 - plain;
    for (i = 0; i < L->n; i++) {
        for (j = i + 1; j < L->n; j++) {
            int keep[NCARDS], s, v, nt;
            int a = cards[i], b = cards[j];
            nt = (cat_of(a) == TRUMP) + (cat_of(b) == TRUMP);
            if (nt != need_trumps) continue;
            memcpy(keep, mine, sizeof keep);
            keep[a] = keep[b] = 0;
            v = 2 * (points_of(a) + points_of(b)); /* banked points, x2 scale */
            for (s = 0; s < 3; s++) v += 2 * suit_value(s, keep, mine);
            if (cat_of(a) == TRUMP) v -= 40 + 6 * trump_rank(a);
            if (cat_of(b) == TRUMP) v -= 40 + 6 * trump_rank(b);
            if (v > best) {
                best = v;
                *pa = i;
                *pb = j;
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* Playing                                                             */
/* ------------------------------------------------------------------ */

typedef struct {
    int n;                 /* legal cards */
    int c[MAXLIST];        /* legal card indices */
    int unseen[NCARDS];    /* not in my hand, not played, not known buried */
    int trick[3], cur;     /* current trick so far */
    int leader, me, soloist;
    int contract;
} Play;

static int argmin_cost(const Play *p, const int *ok)
{
    int i, best = -1;
    for (i = 0; i < p->n; i++)
        if ((!ok || ok[i]) && (best < 0 || cost_of(p->c[i]) < cost_of(p->c[best]))) best = i;
    return best;
}

static int argmax_cost(const Play *p, const int *ok)
{
    int i, best = -1;
    for (i = 0; i < p->n; i++)
        if ((!ok || ok[i]) && (best < 0 || cost_of(p->c[i]) > cost_of(p->c[best]))) best = i;
    return best;
}

/* Highest points, ties broken by the lower cost. */
static int argmax_points(const Play *p, const int *ok)
{
    int i, best = -1;
    for (i = 0; i < p->n; i++) {
        if (ok && !ok[i]) continue;
        if (best < 0 || points_of(p->c[i]) > points_of(p->c[best]) ||
            (points_of(p->c[i]) == points_of(p->c[best]) && cost_of(p->c[i]) < cost_of(p->c[best])))
            best = i;
    }
    return best;
}

/* No unseen card can beat card c in a trick led in category led. */
static int unbeatable(const Play *p, int c, int led)
{
    int u;
    for (u = 0; u < NCARDS; u++)
        if (p->unseen[u] && beats(u, c, led)) return 0;
    return 1;
}

/* Number of unseen cards of c's category stronger than c. */
static int stronger_unseen(const Play *p, int c)
{
    int u, n = 0;
    for (u = 0; u < c; u++)
        if (p->unseen[u] && cat_of(u) == cat_of(c)) n++;
    return n;
}

static int count_unseen_cat(const Play *p, int cat)
{
    int u, n = 0;
    for (u = 0; u < NCARDS; u++)
        if (p->unseen[u] && cat_of(u) == cat) n++;
    return n;
}

static int same_team(const Play *p, int a, int b)
{
    if (a == b) return 1;
    return a != p->soloist && b != p->soloist;
}

/* Avoid tricks: table game, and the small-zole soloist. */
static int play_avoid(const Play *p)
{
    int i, ok[MAXLIST], any = 0;
    if (p->cur == 0) {
        int best = -1, bh = -1;
        for (i = 0; i < p->n; i++) {
            int h = stronger_unseen(p, p->c[i]);
            if (best < 0 || h > bh || (h == bh && cost_of(p->c[i]) < cost_of(p->c[best]))) {
                best = i;
                bh = h;
            }
        }
        return best;
    } else {
        int b = p->trick[trick_best(p->trick, p->cur)], led = cat_of(p->trick[0]);
        for (i = 0; i < p->n; i++) {
            ok[i] = !beats(p->c[i], b, led);
            any |= ok[i];
        }
        if (any) return argmax_cost(p, ok);       /* dump the biggest loser */
        if (p->cur == 2) return argmax_cost(p, NULL); /* the trick is mine anyway */
        return argmin_cost(p, NULL);              /* hope to be overtaken */
    }
}

/* Small zole, opponents of the soloist: make the soloist take a trick. */
static int play_small_defender(const Play *p)
{
    int i, ok[MAXLIST], any = 0, soloist_played = 0, bpos;
    if (p->cur == 0) return argmin_cost(p, NULL);
    for (i = 0; i < p->cur; i++)
        if ((p->leader + i) % 3 == p->soloist) soloist_played = 1;
    bpos = trick_best(p->trick, p->cur);
    if (!soloist_played) return argmin_cost(p, NULL); /* stay under him */
    if ((p->leader + bpos) % 3 == p->soloist) {
        int b = p->trick[bpos], led = cat_of(p->trick[0]);
        for (i = 0; i < p->n; i++) {
            ok[i] = !beats(p->c[i], b, led);
            any |= ok[i];
        }
        if (any) return argmax_cost(p, ok);
        return argmin_cost(p, NULL);
    }
    return argmax_cost(p, NULL);
}

static int play_lead_soloist(const Play *p)
{
    int i, mytr = 0, top = -1, out_tr = count_unseen_cat(p, TRUMP), best = -1, bv = 0;
    for (i = 0; i < p->n; i++) {
        if (cat_of(p->c[i]) == TRUMP) {
            mytr++;
            if (top < 0 || p->c[i] < p->c[top]) top = i;
        }
    }
    if (mytr > 0 && out_tr > 0 && 2 * mytr >= out_tr) {
        /* Pull trumps: the master trump if held, else a cheap trump. */
        if (unbeatable(p, p->c[top], TRUMP)) return top;
        for (i = 0; i < p->n; i++) {
            int c = p->c[i], v;
            if (cat_of(c) != TRUMP) continue;
            v = 100 * points_of(c) + trump_rank(c);
            if (best < 0 || v < bv) {
                best = i;
                bv = v;
            }
        }
        return best;
    }
    if (mytr > 0 && out_tr == 0) return argmax_points(p, NULL); /* every trump wins */
    /* Cash a plain master whose suit the others still hold. */
    for (i = 0; i < p->n; i++) {
        int c = p->c[i];
        if (cat_of(c) == TRUMP || stronger_unseen(p, c) != 0) continue;
        if (count_unseen_cat(p, cat_of(c)) < (out_tr > 0 ? 2 : 1)) continue;
        if (best < 0 || points_of(c) > points_of(p->c[best])) best = i;
    }
    if (best >= 0) return best;
    return argmin_cost(p, NULL);
}

static int play_lead_defender(const Play *p)
{
    int i, best = -1, bn = 0;
    for (i = 0; i < p->n; i++) {
        int c = p->c[i], n;
        if (cat_of(c) == TRUMP || stronger_unseen(p, c) != 0) continue;
        n = count_unseen_cat(p, cat_of(c));
        if (n >= 2 && n > bn) {
            best = i;
            bn = n;
        }
    }
    if (best >= 0) return best;
    return argmin_cost(p, NULL);
}

/* Take and zole: the greedy soloist / defender play. */
static int play_greedy(const Play *p)
{
    int i, bpos, bseat, b, led, pts = 0, last, nextseat;
    int win[MAXLIST], lose[MAXLIST], nwin = 0, lose_pts = 1;
    if (p->cur == 0) return p->me == p->soloist ? play_lead_soloist(p) : play_lead_defender(p);

    bpos = trick_best(p->trick, p->cur);
    bseat = (p->leader + bpos) % 3;
    b = p->trick[bpos];
    led = cat_of(p->trick[0]);
    for (i = 0; i < p->cur; i++) pts += points_of(p->trick[i]);
    last = p->cur == 2;
    nextseat = (p->me + 1) % 3;

    if (bseat != p->me && same_team(p, bseat, p->me)) {
        /* The partner is winning: schmear if the trick is safe. */
        if (last || unbeatable(p, b, led)) return argmax_points(p, NULL);
        return argmin_cost(p, NULL);
    }
    for (i = 0; i < p->n; i++) {
        win[i] = beats(p->c[i], b, led);
        lose[i] = !win[i];
        nwin += win[i];
        if (lose[i] && points_of(p->c[i]) == 0) lose_pts = 0;
    }
    if (nwin == 0) return argmin_cost(p, NULL);
    /* lose_pts: no card can lose this trick without giving points away. */
    if (last || same_team(p, nextseat, p->me)) {
        if (pts > 0 || lose_pts) return argmin_cost(p, win);
        return argmin_cost(p, lose);
    } else {
        int sure[MAXLIST], nsure = 0;
        for (i = 0; i < p->n; i++) {
            sure[i] = win[i] && unbeatable(p, p->c[i], led);
            nsure += sure[i];
        }
        if (nwin == p->n && pts == 0) return argmin_cost(p, NULL); /* nothing at stake */
        if (nsure > 0 && (pts > 0 || lose_pts)) return argmin_cost(p, sure);
        if (pts >= 10) {
            /* Not sure to hold: try with the strongest winner. */
            int best = -1;
            for (i = 0; i < p->n; i++)
                if (win[i] && (best < 0 || beats(p->c[i], p->c[best], led))) best = i;
            return best;
        }
        return argmin_cost(p, nwin == p->n ? NULL : lose);
    }
}

/* Returns the index in g->legal of the card to play, or 0 when odd. */
static int decide_play(const Go *g)
{
    Play p;
    int i, k, nt, leader, inhand[NCARDS] = {0};
    memset(&p, 0, sizeof p);
    if (g->legal.n < 1 || g->legal.bad || g->hand.bad || g->played.bad || g->winners.bad) return 0;
    if (g->seat < 0 || g->forehand < 0 || !g->has_hand || g->hand.n < 1) return 0;
    p.n = g->legal.n;
    for (i = 0; i < p.n; i++) {
        p.c[i] = parse_card(g->legal.raw[i]);
        if (p.c[i] < 0) return 0;
    }
    for (i = 0; i < NCARDS; i++) p.unseen[i] = 1;
    for (i = 0; i < g->hand.n; i++) {
        if (inhand[g->hand.v[i]]) return 0;
        inhand[g->hand.v[i]] = 1;
        p.unseen[g->hand.v[i]] = 0;
    }
    for (i = 0; i < p.n; i++)
        if (!inhand[p.c[i]]) return 0; /* legal card not held: odd */
    for (i = 0; i < g->played.n; i++) {
        if (!p.unseen[g->played.v[i]]) return 0; /* played twice or held */
        p.unseen[g->played.v[i]] = 0;
    }
    if (!g->buried.bad)
        for (i = 0; i < g->buried.n; i++) p.unseen[g->buried.v[i]] = 0;

    /* Replay the finished tricks to find who leads the current one. */
    nt = g->played.n / 3;
    leader = g->forehand;
    for (k = 0; k < nt; k++) {
        int w = (leader + trick_best(&g->played.v[3 * k], 3)) % 3;
        if (k < g->winners.n) w = g->winners.v[k];
        leader = w;
    }
    p.leader = leader;
    p.cur = g->played.n % 3;
    for (i = 0; i < p.cur; i++) p.trick[i] = g->played.v[3 * nt + i];
    p.me = g->seat;
    p.soloist = g->soloist;
    p.contract = g->contract;

    switch (g->contract) {
    case CT_TABLE:
        return play_avoid(&p);
    case CT_SMALL:
        if (p.soloist < 0) return 0;
        return p.me == p.soloist ? play_avoid(&p) : play_small_defender(&p);
    case CT_TAKE:
    case CT_ZOLE:
        if (p.soloist < 0) return 0;
        return play_greedy(&p);
    default:
        return 0;
    }
}

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

static void answer_go(int ntok)
{
    Go g;
    char msg[256];
    const char *ans = NULL;
    parse_go(&g, ntok);
    if (!g.id || strlen(g.id) > 40) return; /* nothing to answer to */
    if (!g.has_legal || g.legal.n < 1) {
        /* No legal list: the arena always sends one; guess a harmless answer. */
        if (g.phase == PH_BURY && g.hand.n >= 2 && !g.hand.bad)
            snprintf(msg, sizeof msg, "action %s %s %s", g.id, g.hand.raw[0], g.hand.raw[1]);
        else if (g.phase == PH_PLAY && g.hand.n >= 1 && !g.hand.bad)
            snprintf(msg, sizeof msg, "action %s %s", g.id, g.hand.raw[0]);
        else
            snprintf(msg, sizeof msg, "action %s pass", g.id);
        out(msg);
        return;
    }
    if (g.phase == PH_BURY) {
        int a = 0, b = 1;
        if (g.legal.n >= 2) {
            if (!g.legal.bad) decide_bury(&g, &a, &b);
            if (strlen(g.legal.raw[a]) + strlen(g.legal.raw[b]) < 100)
                snprintf(msg, sizeof msg, "action %s %s %s", g.id, g.legal.raw[a], g.legal.raw[b]);
            else
                snprintf(msg, sizeof msg, "action %s %.8s %.8s", g.id, g.legal.raw[0], g.legal.raw[1]);
        } else {
            snprintf(msg, sizeof msg, "action %s %.100s", g.id, g.legal.raw[0]);
        }
        out(msg);
        return;
    }
    if (g.phase == PH_BID && !g.legal.bad) {
        ans = decide_bid(&g);
    } else if (g.phase == PH_PLAY) {
        ans = g.legal.raw[decide_play(&g)];
    } else {
        ans = g.legal.raw[0];
    }
    snprintf(msg, sizeof msg, "action %s %.100s", g.id, ans);
    out(msg);
}

static void set_option(int ntok)
{
    int i, vi = -1;
    /* setoption name <name...> value <value...> */
    for (i = 1; i < ntok; i++)
        if (strcmp(tok[i], "value") == 0) {
            vi = i;
            break;
        }
    if (ntok < 3 || strcmp(tok[1], "name") != 0) return;
    if (vi != 3 || !ieq(tok[2], "Aggression") || vi + 1 >= ntok) return;
    {
        char *end;
        long v = strtol(tok[vi + 1], &end, 10);
        if (end == tok[vi + 1] || *end != '\0') return;
        if (v < 0) v = 0;
        if (v > 100) v = 100;
        aggression = (int)v;
    }
}

/* Reads one line into line_buf, without its end (\n or \r\n); returns 0
 * at EOF, -1 for a line longer than MAXLINE (it is skipped), 1 otherwise. */
static int read_line(void)
{
    size_t n;
    int complete;
    if (!fgets(line_buf, sizeof line_buf, stdin)) return 0;
    n = strlen(line_buf);
    complete = n > 0 && line_buf[n - 1] == '\n';
    if (!complete && n == sizeof line_buf - 1) {
        /* Too long: discard the rest of it. */
        int ch;
        while ((ch = getchar()) != EOF && ch != '\n') {
        }
        return -1;
    }
    if (complete) line_buf[--n] = '\0';
    if (n > 0 && line_buf[n - 1] == '\r') line_buf[--n] = '\0';
    return n > MAXLINE ? -1 : 1;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (;;) {
        int r = read_line(), ntok;
        if (r == 0) break;
        if (r < 0) continue;
        ntok = tokenize(line_buf);
        if (ntok == 0) continue;
        if (strcmp(tok[0], "zole") == 0) {
            out("id name CGreedy");
            out("id author zole-arena");
            out("id version 1");
            out("option name Aggression type spin default 50 min 0 max 100");
            out("zoleok 1");
        } else if (strcmp(tok[0], "isready") == 0) {
            out("readyok");
        } else if (strcmp(tok[0], "setoption") == 0) {
            set_option(ntok);
        } else if (strcmp(tok[0], "go") == 0) {
            answer_go(ntok);
        } else if (strcmp(tok[0], "quit") == 0) {
            break;
        }
        /* anything else (events, unknown messages) is ignored */
    }
    return 0;
}
