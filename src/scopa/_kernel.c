/* scopa._kernel: random playouts and random deals in C, an optional accelerator.
 *
 * Why C through setuptools ext_modules: one small file, no dependency beyond a C compiler
 * and the Python headers, no JIT warm-up; the build is optional (a failed build leaves the
 * package working on its pure-Python path, scopa.playout, which stays the reference).
 *
 * Everything here mirrors scopa/playout.py step for step, so that both paths give the
 * same outcome from the same 64-bit seed: the playout PRNG (a 64-bit LCG, the high 32 bits
 * scaled to the range, no draw for a choice of one), the policy (a uniformly random card,
 * then a uniformly random one of its captures), the order of the captures
 * (scopa.captures: rank solutions in walk order, then the cards of each in
 * combination/product order), the sweep rule and the score items of scopa.meaning. What
 * a rule set means reaches this file only as a packed spec (scopa/kernel.py builds it from
 * a Meaning); rule sets it cannot express stay on the Python path.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define LCG_A 6364136223846793005ULL
#define LCG_C 1442695040888963407ULL
#define MAXP 6
#define MAXSOL 512

/* score items (bit flags; scopa/kernel.py maps Meaning.items onto them) */
enum {
    IT_CARDS = 1, IT_COINS = 2, IT_SETTEBELLO = 4, IT_PRIMIERA = 8, IT_SEVENS = 16,
    IT_SCOPE = 32, IT_NAPOLA = 64, IT_RE_BELLO = 128, IT_PICCOLA = 256, IT_GRANDE = 512,
    IT_DECLARED = 1024
};

/* the packed spec: int32 fields in this order (scopa/kernel.py SPEC_FIELDS) */
typedef struct {
    int32_t mode;          /* 0 equal, 1 fifteen, 2 cirulla */
    int32_t fewest;        /* fewest_cards */
    int32_t ace_all;       /* ace_takes_all */
    int32_t ace_void;      /* an ace's take-all sweep does not score */
    int32_t last_sweeps;   /* a sweep on the last play scores */
    int32_t declarations;  /* 0 off, 1 choice, 2 auto */
    int32_t players;
    int32_t teams;
    int32_t table_cards;
    int32_t king_redeal;   /* 0: never */
    int32_t ace_redeal;    /* 0: never */
    int32_t table_fifteen;
    int32_t items;         /* IT_* flags */
    int32_t faces_rank;    /* primiera faces worth their rank */
    int32_t nrounds;
    int32_t rounds[40];
} Spec;

static const int PRIM_TEN[11] = {0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10};
static const int PRIM_RANK[11] = {0, 16, 12, 13, 14, 15, 18, 21, 8, 9, 10};
static int best_ten[1024], best_rank[1024];

static uint8_t bits10[1024]; /* cards in each 10-bit set (no popcnt instruction assumed) */
static inline int count40(uint64_t m) {
    return bits10[m & 1023] + bits10[m >> 10 & 1023] + bits10[m >> 20 & 1023] + bits10[m >> 30 & 1023];
}
static inline int rank_of(int c) { return c % 10 + 1; }
static inline uint64_t rank_mask(int r) {
    uint64_t b = 1ULL << (r - 1);
    return b | b << 10 | b << 20 | b << 30;
}

/* -- the playout PRNG ------------------------------------------------------------------ */
static inline uint32_t pick(uint64_t *x, uint32_t n) {
    if (n <= 1) return 0;
    *x = *x * LCG_A + LCG_C;
    return (uint32_t)(((*x >> 32) * (uint64_t)n) >> 32);
}

/* -- captures (scopa.captures, same order) --------------------------------------------- */
typedef struct { int8_t c[11]; } Sol;
typedef struct { Sol *out; int n; } Sols;

static void walk(const int *counts, int8_t *chosen, int rank, int remaining, Sols *s) {
    if (remaining == 0) {
        if (s->n < MAXSOL) { memcpy(s->out[s->n].c, chosen, 11); s->n++; }
        return;
    }
    if (rank > 10 || rank > remaining) return;
    int most = counts[rank] < remaining / rank ? counts[rank] : remaining / rank;
    for (int k = most; k >= 0; k--) {
        chosen[rank] = (int8_t)k;
        walk(counts, chosen, rank + 1, remaining - k * rank, s);
    }
    chosen[rank] = 0;
}

static int sol_cards(const Sol *s) {
    int t = 0;
    for (int r = 1; r <= 10; r++) t += s->c[r];
    return t;
}

/* subsets summing to target, kept if they hold at least min_cards cards */
static int subsets(const int *counts, int target, int min_cards, Sol *out) {
    Sol all[MAXSOL];
    int8_t chosen[11] = {0};
    Sols s = {all, 0};
    walk(counts, chosen, 1, target, &s);
    int n = 0;
    for (int i = 0; i < s.n; i++)
        if (sol_cards(&all[i]) >= min_cards) out[n++] = all[i];
    return n;
}

static int fewest(Sol *sols, int n) {
    if (!n) return 0;
    int low = 99;
    for (int i = 0; i < n; i++) { int k = sol_cards(&sols[i]); if (k < low) low = k; }
    int m = 0;
    for (int i = 0; i < n; i++) if (sol_cards(&sols[i]) == low) sols[m++] = sols[i];
    return m;
}

static void single(Sol *s, int rank) { memset(s->c, 0, 11); s->c[rank] = 1; }
static void whole(Sol *s, const int *counts) { for (int r = 0; r <= 10; r++) s->c[r] = (int8_t)counts[r]; }

static int rank_solutions(const Spec *sp, const int *counts, int rank, Sol *out) {
    int any = 0;
    for (int r = 1; r <= 10; r++) any |= counts[r];
    if (sp->mode == 2) { /* cirulla */
        if (sp->ace_all && rank == 1 && any && !counts[1]) { whole(&out[0], counts); return 1; }
        int n;
        if (counts[rank]) { single(&out[0], rank); n = 1; }
        else { n = subsets(counts, rank, 2, out); n = fewest(out, n); }
        int f = subsets(counts, 15 - rank, 1, out + n);
        if (sp->fewest) f = fewest(out + n, f);
        return n + f;
    }
    if (sp->mode == 1) { /* fifteen */
        if (sp->ace_all && rank == 1 && any) { whole(&out[0], counts); return 1; }
        int n = subsets(counts, 15 - rank, 1, out);
        return sp->fewest ? fewest(out, n) : n;
    }
    if (counts[rank]) { single(&out[0], rank); return 1; }
    if (sp->ace_all && rank == 1) {
        if (!any) return 0;
        whole(&out[0], counts);
        return 1;
    }
    int n = subsets(counts, rank, 2, out);
    return sp->fewest ? fewest(out, n) : n;
}

/* growable list of capture masks */
static uint64_t *opt_buf = NULL;
static size_t opt_cap = 0;
static inline int opt_push(size_t i, uint64_t m) {
    if (i >= opt_cap) {
        size_t cap = opt_cap ? opt_cap * 2 : 1024;
        uint64_t *b = (uint64_t *)realloc(opt_buf, cap * sizeof(uint64_t));
        if (!b) return -1;
        opt_buf = b;
        opt_cap = cap;
    }
    opt_buf[i] = m;
    return 0;
}

/* Rank solutions depend only on the table's rank counts (its rank key, 3 bits a rank, as
 * scopa.cards.RANK_KEY): they are kept in a direct-mapped cache, each solution as its
 * rank key and the set of its ranks (scopa.captures keeps the same by rank key). */
#define CACHE_BITS 13
#define CACHE_SOLS 6
typedef struct {
    uint64_t tag; /* 0: empty */
    int32_t n;
    uint32_t key[CACHE_SOLS];
    uint16_t ranks[CACHE_SOLS];
} Slot;
static Slot cache[1 << CACHE_BITS];
static uint32_t suit_key[1024];   /* rank key of each 10-bit set of one suit's ranks */
static uint64_t span_of[1024];    /* cards of each set of ranks (bit r-1: rank r) */
static uint32_t field_of[1024];   /* the rank-key fields of each set of ranks */

static inline uint32_t rank_key_of(uint64_t t) {
    return suit_key[t & 1023] + suit_key[t >> 10 & 1023] + suit_key[t >> 20 & 1023]
           + suit_key[t >> 30 & 1023];
}

static void pack_sol(const Sol *s, uint32_t *key, uint16_t *ranks) {
    uint32_t k = 0;
    uint16_t rs = 0;
    for (int r = 1; r <= 10; r++)
        if (s->c[r]) { k |= (uint32_t)s->c[r] << (3 * (r - 1)); rs |= (uint16_t)(1 << (r - 1)); }
    *key = k;
    *ranks = rs;
}

/* append the card masks of one rank solution, in itertools combinations/product order */
static int expand(uint64_t table, uint32_t tkey, uint32_t key, uint16_t ranks, size_t *n) {
    /* the table holds each needed rank exactly as often as needed: one way to take it */
    if ((tkey & field_of[ranks]) == key) return opt_push((*n)++, table & span_of[ranks]);
    uint64_t combos[10][6];
    int ncomb[10], nr = 0;
    for (int r = 1; r <= 10; r++) {
        int need = key >> (3 * (r - 1)) & 7;
        if (!need) continue;
        int cards[4], k = 0;
        uint64_t m = table & rank_mask(r);
        while (m) { cards[k++] = __builtin_ctzll(m); m &= m - 1; }
        int nc = 0;
        for (int a = 0; a < k; a++) {
            if (need == 1) { combos[nr][nc++] = 1ULL << cards[a]; continue; }
            for (int b = a + 1; b < k; b++) {
                if (need == 2) { combos[nr][nc++] = 1ULL << cards[a] | 1ULL << cards[b]; continue; }
                for (int c = b + 1; c < k; c++) {
                    if (need == 3) {
                        combos[nr][nc++] = 1ULL << cards[a] | 1ULL << cards[b] | 1ULL << cards[c];
                        continue;
                    }
                    for (int d = c + 1; d < k; d++)
                        combos[nr][nc++] = 1ULL << cards[a] | 1ULL << cards[b]
                                           | 1ULL << cards[c] | 1ULL << cards[d];
                }
            }
        }
        ncomb[nr++] = nc;
    }
    /* itertools.product order: the last rank varies fastest */
    int idx[10] = {0};
    for (;;) {
        uint64_t m = 0;
        for (int j = 0; j < nr; j++) m |= combos[j][idx[j]];
        if (opt_push((*n)++, m) < 0) return -1;
        int j = nr - 1;
        while (j >= 0 && ++idx[j] == ncomb[j]) { idx[j] = 0; j--; }
        if (j < 0) break;
    }
    return 0;
}

/* every card mask the played rank may take from this table, in scopa.captures order */
static long capture_options(const Spec *sp, uint64_t table, int rank) {
    if (!table) return 0;
    if (sp->mode == 0 && table & rank_mask(rank)) { /* the common case: equal cards */
        long n = 0;
        for (uint64_t m = table & rank_mask(rank); m; m &= m - 1)
            if (opt_push((size_t)n++, m & -m) < 0) return -1;
        return n;
    }
    uint32_t tkey = rank_key_of(table);
    uint64_t tag = (((uint64_t)tkey << 4 | (uint64_t)rank) << 4
                    | (uint64_t)(sp->mode << 2 | (sp->fewest != 0) << 1 | (sp->ace_all != 0))) + 1;
    Slot *slot = &cache[(tag * 0x9E3779B97F4A7C15ULL) >> (64 - CACHE_BITS)];
    size_t n = 0;
    if (slot->tag != tag) {
        int counts[11] = {0};
        for (int r = 1; r <= 10; r++) counts[r] = tkey >> (3 * (r - 1)) & 7;
        Sol sols[2 * MAXSOL];
        int ns = rank_solutions(sp, counts, rank, sols);
        if (ns > CACHE_SOLS) { /* rare: too many to keep, expand them directly */
            for (int i = 0; i < ns; i++) {
                uint32_t key;
                uint16_t rs;
                pack_sol(&sols[i], &key, &rs);
                if (expand(table, tkey, key, rs, &n) < 0) return -1;
            }
            return (long)n;
        }
        slot->tag = tag;
        slot->n = ns;
        for (int i = 0; i < ns; i++) pack_sol(&sols[i], &slot->key[i], &slot->ranks[i]);
    }
    for (int i = 0; i < slot->n; i++)
        if (expand(table, tkey, slot->key[i], slot->ranks[i], &n) < 0) return -1;
    return (long)n;
}

/* -- declarations (scopa.meaning.declaration_points) ----------------------------------- */
#define MATTA 16
static int declaration_points(uint64_t hand) {
    int ranks[3], k = 0;
    int matta = (int)(hand >> MATTA & 1);
    uint64_t m = hand & ~(1ULL << MATTA);
    while (m) { int c = __builtin_ctzll(m); m &= m - 1; if (k < 3) ranks[k] = rank_of(c); k++; }
    if (k + matta != 3) return 0;
    int trips, low;
    if (k == 2) { trips = ranks[0] == ranks[1]; low = ranks[0] + ranks[1] + 1 < 10; }
    else { trips = ranks[0] == ranks[1] && ranks[1] == ranks[2]; low = ranks[0] + ranks[1] + ranks[2] < 10; }
    return trips ? 10 : low ? 3 : 0;
}

/* -- the state of a hand --------------------------------------------------------------- */
typedef struct {
    int n, dealer, p, in_hands, lc, rnd;
    uint64_t hands[MAXP], captured[MAXP], table;
    int scope[MAXP], declared[MAXP];
    uint64_t shown[MAXP];
    int undecided;
    int stock[40], nstock; /* next card dealt is stock[nstock - 1] (as Game.stock) */
} Hand;

static void declare(Hand *h, int seat) {
    h->declared[seat] += declaration_points(h->hands[seat]);
    h->shown[seat] = h->hands[seat];
}

/* Game._offer_declarations: every round dealt, a scoring hand declares (auto) or may */
static void offer(const Spec *sp, Hand *h) {
    h->undecided = 0;
    for (int s = 0; s < h->n; s++) h->shown[s] = 0;
    for (int s = 0; s < h->n; s++) {
        if (declaration_points(h->hands[s])) {
            if (sp->declarations == 2) declare(h, s);
            else h->undecided |= 1 << s;
        }
    }
}

static int deal_round(const Spec *sp, Hand *h) {
    int n = h->n, first = (h->dealer + 1) % n;
    if (h->rnd + 1 >= sp->nrounds) return -1;
    h->rnd++;
    int size = sp->rounds[h->rnd];
    if (h->nstock < n * size) return -1;
    for (int k = 0; k < size; k++)
        for (int i = 0; i < n; i++) {
            int seat = (first + i) % n;
            h->hands[seat] |= 1ULL << h->stock[--h->nstock];
        }
    h->in_hands = n * size;
    h->p = first;
    if (sp->declarations) offer(sp, h);
    return 0;
}

/* the legal plays of a state, in Game.legal_codes order (for the capture policy) */
typedef struct { int card; uint64_t cap; } Play;
static Play *plays_buf = NULL;
static size_t plays_cap = 0;
static int plays_push(size_t i, int card, uint64_t cap) {
    if (i >= plays_cap) {
        size_t ncap = plays_cap ? plays_cap * 2 : 256;
        Play *b = (Play *)realloc(plays_buf, ncap * sizeof(Play));
        if (!b) return -1;
        plays_buf = b;
        plays_cap = ncap;
    }
    plays_buf[i].card = card;
    plays_buf[i].cap = cap;
    return 0;
}

static inline double unit(uint64_t *x) { /* the generator's next step as a fraction */
    *x = *x * LCG_A + LCG_C;
    return (double)(*x >> 11) * (1.0 / 9007199254740992.0);
}

enum { POLICY_RANDOM = 0, POLICY_CAPTURE = 1 };

/* Play the hand to its end; -1: out of memory, -2: the state does not add up (a seat to
 * play with no card, a short stock). POLICY_RANDOM is scopa.playout's loop (a random card,
 * then a random capture for it); POLICY_CAPTURE is scopa.bots.rollout's capture policy
 * (a sweep if any, else with probability capture_prob the capture taking most cards,
 * else a random legal play). */
static int play_out(const Spec *sp, Hand *h, uint64_t *x, int policy, double capture_prob) {
    int n = h->n;
    for (;;) {
        int p = h->p;
        if (h->undecided >> p & 1) { /* every seat that may declare does */
            declare(h, p);
            h->undecided &= ~(1 << p);
            continue;
        }
        uint64_t hand = h->hands[p];
        if (!hand) return -2;
        int c;
        uint64_t cap = 0;
        if (policy == POLICY_CAPTURE) {
            size_t np = 0;
            for (uint64_t m = hand; m; m &= m - 1) {
                int cc = __builtin_ctzll(m);
                long k = capture_options(sp, h->table, rank_of(cc));
                if (k < 0) return -1;
                if (!k && plays_push(np++, cc, 0) < 0) return -1;
                for (long i = 0; i < k; i++)
                    if (plays_push(np++, cc, opt_buf[i]) < 0) return -1;
            }
            long best = -1;
            int best_n = 0;
            for (size_t i = 0; i < np; i++) {
                uint64_t pc = plays_buf[i].cap;
                if (!pc) continue;
                if (pc == h->table) { best = (long)i; break; }
                int k = count40(pc);
                if (k > best_n) { best = (long)i; best_n = k; }
            }
            size_t chosen;
            if (best >= 0 && (plays_buf[best].cap == h->table || unit(x) < capture_prob))
                chosen = (size_t)best;
            else
                chosen = pick(x, (uint32_t)np);
            c = plays_buf[chosen].card;
            cap = plays_buf[chosen].cap;
        } else {
            uint32_t i = pick(x, (uint32_t)count40(hand));
            uint64_t m = hand;
            while (i--) m &= m - 1;
            c = __builtin_ctzll(m);
            long nopt = capture_options(sp, h->table, rank_of(c));
            if (nopt < 0) return -1;
            if (nopt) cap = opt_buf[pick(x, (uint32_t)nopt)];
        }
        int r = rank_of(c);
        h->hands[p] = hand ^ 1ULL << c;
        h->in_hands--;
        if (cap) {
            h->table ^= cap;
            if (!h->table) {
                int last = !(h->in_hands || h->nstock);
                int scores = !(last && !sp->last_sweeps)
                             && !(sp->ace_void && r == 1 && !(cap & rank_mask(1)));
                if (scores) h->scope[p]++;
            }
            h->captured[p] |= cap | 1ULL << c;
            h->lc = p;
        } else {
            h->table |= 1ULL << c;
        }
        if (h->in_hands) {
            h->p = p + 1 == n ? 0 : p + 1;
        } else if (h->nstock) {
            if (deal_round(sp, h) < 0) return -2;
        } else {
            break;
        }
    }
    if (h->table && h->lc >= 0) {
        h->captured[h->lc] |= h->table;
        h->table = 0;
    }
    return 0;
}

/* -- scoring (scopa.items, the items scopa.meaning lists) ------------------------------ */
static int top(const int *v, const int *has, int n) {
    int best = -1, high = 0, tied = 0;
    for (int i = 0; i < n; i++) {
        if (!has[i]) continue;
        if (v[i] > high) { high = v[i]; best = i; tied = 0; }
        else if (v[i] == high && high) tied = 1;
    }
    return tied ? -1 : best;
}

static int napola_points(uint64_t p) {
    uint64_t coins = p & 0x3FF;
    if ((coins & 7) != 7) return 0;
    int run = 3;
    while (run < 10 && (coins >> run & 1)) run++;
    return run;
}

static void totals_of(const Spec *sp, const Hand *h, int *totals) {
    int sides = sp->teams;
    uint64_t piles[MAXP] = {0};
    int sweeps[MAXP] = {0}, decl[MAXP] = {0}, v[MAXP], has[MAXP];
    for (int s = 0; s < h->n; s++) {
        piles[s % sides] |= h->captured[s];
        sweeps[s % sides] += h->scope[s];
        decl[s % sides] += h->declared[s];
    }
    for (int i = 0; i < sides; i++) { totals[i] = 0; has[i] = 1; }
    int it = sp->items, w;
    static const uint64_t ALL = (1ULL << 40) - 1, COINS = 0x3FF;
    uint64_t most[3] = {ALL, COINS, rank_mask(7)};
    int most_flag[3] = {IT_CARDS, IT_COINS, IT_SEVENS};
    for (int k = 0; k < 3; k++) {
        if (!(it & most_flag[k])) continue;
        for (int i = 0; i < sides; i++) v[i] = count40(piles[i] & most[k]);
        if ((w = top(v, has, sides)) >= 0) totals[w]++;
    }
    if (it & IT_SETTEBELLO) for (int i = 0; i < sides; i++) totals[i] += (int)(piles[i] >> 6 & 1);
    if (it & IT_RE_BELLO) for (int i = 0; i < sides; i++) totals[i] += (int)(piles[i] >> 9 & 1);
    if (it & IT_GRANDE)
        for (int i = 0; i < sides; i++) if ((piles[i] & (7ULL << 7)) == 7ULL << 7) totals[i] += 5;
    if (it & IT_PRIMIERA) {
        const int *best = sp->faces_rank ? best_rank : best_ten;
        for (int i = 0; i < sides; i++) {
            int a = best[piles[i] & 0x3FF], b = best[piles[i] >> 10 & 0x3FF];
            int c = best[piles[i] >> 20 & 0x3FF], d = best[piles[i] >> 30 & 0x3FF];
            has[i] = a && b && c && d;
            v[i] = a + b + c + d;
        }
        if ((w = top(v, has, sides)) >= 0) totals[w]++;
    }
    if (it & IT_SCOPE) for (int i = 0; i < sides; i++) totals[i] += sweeps[i];
    if (it & IT_NAPOLA) for (int i = 0; i < sides; i++) totals[i] += napola_points(piles[i]);
    if (it & IT_PICCOLA) for (int i = 0; i < sides; i++) totals[i] += napola_points(piles[i]);
    if (it & IT_DECLARED) for (int i = 0; i < sides; i++) totals[i] += decl[i];
}

/* -- a random deal (scopa.playout.random_deals) ---------------------------------------- */
static int void_deal(const Spec *sp, const int *deck) {
    int start = sp->players * sp->rounds[0], kings = 0, aces = 0;
    if (!sp->table_cards) return 0;
    for (int i = start; i < start + sp->table_cards; i++) {
        int r = rank_of(deck[i]);
        kings += r == 10;
        aces += r == 1;
    }
    return (sp->ace_redeal && aces >= sp->ace_redeal) || (sp->king_redeal && kings >= sp->king_redeal);
}

static void new_deal(const Spec *sp, Hand *h, uint64_t *x) {
    int deck[40];
    for (int i = 0; i < 40; i++) deck[i] = i;
    do {
        for (int i = 39; i > 0; i--) {
            int j = (int)pick(x, (uint32_t)(i + 1));
            int t = deck[i]; deck[i] = deck[j]; deck[j] = t;
        }
    } while (void_deal(sp, deck));
    memset(h, 0, sizeof(*h));
    h->n = sp->players;
    h->dealer = h->n - 1;
    h->lc = -1;
    h->rnd = -1;
    h->nstock = 40;
    for (int i = 0; i < 40; i++) h->stock[i] = deck[39 - i];
    deal_round(sp, h); /* the spec's deal adds up to 40 cards (Rules checks it) */
    for (int i = 0; i < sp->table_cards; i++) h->table |= 1ULL << h->stock[--h->nstock];
    if (sp->table_fifteen && h->table) {
        int total = 0;
        for (int c = 0; c < 40; c++) if (h->table >> c & 1) total += rank_of(c);
        if (total == 15 || total == 30) {
            h->captured[h->dealer] |= h->table;
            h->scope[h->dealer] += total / 15;
            h->lc = h->dealer;
            h->table = 0;
        }
    }
}

/* -- Python glue ------------------------------------------------------------------------ */
static const Spec *spec_of(PyObject *b) {
    if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) != (Py_ssize_t)sizeof(Spec)) {
        PyErr_SetString(PyExc_TypeError, "spec must be the bytes scopa.kernel builds");
        return NULL;
    }
    const Spec *sp = (const Spec *)PyBytes_AS_STRING(b);
    if (sp->players < 2 || sp->players > MAXP || sp->teams < 1 || sp->teams > sp->players
        || sp->nrounds < 1 || sp->nrounds > 40) {
        PyErr_SetString(PyExc_ValueError, "malformed spec");
        return NULL;
    }
    return sp;
}

static int read_masks(PyObject *list, uint64_t *out, int n, const char *what) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != n) {
        PyErr_Format(PyExc_TypeError, "%s must be a list of one int per seat", what);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(list, i));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        out[i] = v;
    }
    return 0;
}

static int write_masks(PyObject *list, const uint64_t *v, int n) {
    for (int i = 0; i < n; i++) {
        PyObject *o = PyLong_FromUnsignedLongLong(v[i]);
        if (!o || PyList_SetItem(list, i, o) < 0) return -1;
    }
    return 0;
}

static PyObject *tuple_of_ints(const int *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

PyDoc_STRVAR(playout_doc,
"playout(spec, hands, captured, scope, declared, shown, stock, table, to_move, in_hands,\n"
"        last_capturer, round, dealer, undecided, seed, policy=0, capture_prob=0.0)\n"
"-> (table, to_move, last_capturer, round, seed, declared, shown)\n\n"
"Play the hand out at random. hands, captured and scope are updated in place and stock\n"
"is emptied; declared and shown (sequences) are read and their new values returned\n"
"(None when the rules have no declarations).");

static PyObject *k_playout(PyObject *self, PyObject *args) {
    PyObject *specb, *hands, *captured, *scope, *declared, *shownl, *stock;
    unsigned long long table, seed;
    int p, in_hands, lc, rnd, dealer, undecided, policy = POLICY_RANDOM;
    double capture_prob = 0.0;
    if (!PyArg_ParseTuple(args, "OOOOOOOKiiiiiiK|id", &specb, &hands, &captured, &scope,
                          &declared, &shownl, &stock, &table, &p, &in_hands, &lc, &rnd, &dealer,
                          &undecided, &seed, &policy, &capture_prob))
        return NULL;
    if (policy != POLICY_RANDOM && policy != POLICY_CAPTURE) {
        PyErr_SetString(PyExc_ValueError, "policy must be 0 (random) or 1 (capture)");
        return NULL;
    }
    const Spec *sp = spec_of(specb);
    if (!sp) return NULL;
    Hand h;
    memset(&h, 0, sizeof(h));
    int n = h.n = sp->players;
    if (p < 0 || p >= n || rnd < -1 || rnd >= sp->nrounds || dealer < 0 || dealer >= n) {
        PyErr_SetString(PyExc_ValueError, "state does not fit the spec");
        return NULL;
    }
    h.p = p; h.in_hands = in_hands; h.lc = lc; h.rnd = rnd; h.dealer = dealer;
    h.table = table; h.undecided = undecided;
    if (read_masks(hands, h.hands, n, "hands") < 0 || read_masks(captured, h.captured, n, "captured") < 0)
        return NULL;
    if (!PyList_Check(scope) || PyList_GET_SIZE(scope) != n || !PyList_Check(stock)
        || PyList_GET_SIZE(stock) > 40) {
        PyErr_SetString(PyExc_TypeError, "scope and stock must be lists");
        return NULL;
    }
    PyObject *dseq = PySequence_Fast(declared, "declared must be a sequence");
    if (!dseq) return NULL;
    if (PySequence_Fast_GET_SIZE(dseq) != n) {
        Py_DECREF(dseq);
        PyErr_SetString(PyExc_TypeError, "declared must hold one int per seat");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        h.scope[i] = (int)PyLong_AsLong(PyList_GET_ITEM(scope, i));
        h.declared[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(dseq, i));
    }
    Py_DECREF(dseq);
    if (sp->declarations) {
        PyObject *sseq = PySequence_Fast(shownl, "shown must be a sequence");
        if (!sseq) return NULL;
        if (PySequence_Fast_GET_SIZE(sseq) != n) {
            Py_DECREF(sseq);
            PyErr_SetString(PyExc_TypeError, "shown must hold one int per seat");
            return NULL;
        }
        for (int i = 0; i < n; i++)
            h.shown[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(sseq, i));
        Py_DECREF(sseq);
    }
    h.nstock = (int)PyList_GET_SIZE(stock);
    for (int i = 0; i < h.nstock; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(stock, i));
        if (c < 0 || c >= 40) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "stock holds a non-card");
            return NULL;
        }
        h.stock[i] = (int)c;
    }
    if (PyErr_Occurred()) return NULL;
    /* a hand already over, or a state with nothing left, changes nothing */
    int rounds_left = h.nstock > 0 && h.rnd + 1 < sp->nrounds;
    if (h.in_hands <= 0 && !rounds_left) {
        PyErr_SetString(PyExc_ValueError, "no card left to play");
        return NULL;
    }
    uint64_t x = seed;
    int err = play_out(sp, &h, &x, policy, capture_prob);
    if (err == -1) return PyErr_NoMemory();
    if (err < 0) {
        PyErr_SetString(PyExc_ValueError, "the state does not add up (no card to play)");
        return NULL;
    }
    if (write_masks(hands, h.hands, n) < 0 || write_masks(captured, h.captured, n) < 0) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *o = PyLong_FromLong(h.scope[i]);
        if (!o || PyList_SetItem(scope, i, o) < 0) return NULL;
    }
    if (PyList_SetSlice(stock, 0, PyList_GET_SIZE(stock), NULL) < 0) return NULL;
    PyObject *decl = Py_None, *shown = Py_None;
    Py_INCREF(Py_None);
    Py_INCREF(Py_None);
    if (sp->declarations) {
        Py_DECREF(decl);
        Py_DECREF(shown);
        decl = PyList_New(n);
        shown = PyList_New(n);
        if (!decl || !shown) { Py_XDECREF(decl); Py_XDECREF(shown); return NULL; }
        for (int i = 0; i < n; i++) {
            PyList_SET_ITEM(decl, i, PyLong_FromLong(h.declared[i]));
            PyList_SET_ITEM(shown, i, PyLong_FromUnsignedLongLong(h.shown[i]));
        }
    }
    return Py_BuildValue("KiiiKNN", (unsigned long long)h.table, h.p, h.lc, h.rnd,
                         (unsigned long long)x, decl, shown);
}

PyDoc_STRVAR(deals_doc,
"deals(spec, seed, count) -> (bytes, seed)\n\n"
"Shuffle, deal and play count hands at random; the bytes hold each deal's points per\n"
"side as native int32, deal after deal.");

static PyObject *k_deals(PyObject *self, PyObject *args) {
    PyObject *specb;
    unsigned long long seed;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "OKn", &specb, &seed, &count)) return NULL;
    const Spec *sp = spec_of(specb);
    if (!sp) return NULL;
    if (count < 0) { PyErr_SetString(PyExc_ValueError, "count must be >= 0"); return NULL; }
    int sides = sp->teams;
    PyObject *out = PyBytes_FromStringAndSize(NULL, count * sides * (Py_ssize_t)sizeof(int32_t));
    if (!out) return NULL;
    int32_t *t = (int32_t *)PyBytes_AS_STRING(out);
    uint64_t x = seed;
    Hand h;
    int totals[MAXP];
    for (Py_ssize_t d = 0; d < count; d++) {
        new_deal(sp, &h, &x);
        int err = play_out(sp, &h, &x, POLICY_RANDOM, 0.0);
        if (err < 0) {
            Py_DECREF(out);
            if (err == -1) return PyErr_NoMemory();
            PyErr_SetString(PyExc_ValueError, "malformed spec: the deal does not add up");
            return NULL;
        }
        totals_of(sp, &h, totals);
        for (int i = 0; i < sides; i++) t[d * sides + i] = totals[i];
    }
    return Py_BuildValue("NK", out, (unsigned long long)x);
}

PyDoc_STRVAR(captures_doc,
"captures(spec, table, rank) -> tuple of card masks, in the engine's order");

static PyObject *k_captures(PyObject *self, PyObject *args) {
    PyObject *specb;
    unsigned long long table;
    int rank;
    if (!PyArg_ParseTuple(args, "OKi", &specb, &table, &rank)) return NULL;
    const Spec *sp = spec_of(specb);
    if (!sp) return NULL;
    if (rank < 1 || rank > 10 || table >> 40) {
        PyErr_SetString(PyExc_ValueError, "rank must be 1..10 and table a 40-bit mask");
        return NULL;
    }
    long n = capture_options(sp, table, rank);
    if (n < 0) return PyErr_NoMemory();
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (long i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromUnsignedLongLong(opt_buf[i]));
    return t;
}

PyDoc_STRVAR(totals_doc, "totals(spec, captured, scope, declared) -> tuple of points per side");

static PyObject *k_totals(PyObject *self, PyObject *args) {
    PyObject *specb, *captured, *scope, *declared;
    if (!PyArg_ParseTuple(args, "OOOO", &specb, &captured, &scope, &declared)) return NULL;
    const Spec *sp = spec_of(specb);
    if (!sp) return NULL;
    Hand h;
    memset(&h, 0, sizeof(h));
    h.n = sp->players;
    if (read_masks(captured, h.captured, h.n, "captured") < 0) return NULL;
    for (int i = 0; i < h.n; i++) {
        PyObject *s = PySequence_GetItem(scope, i), *d = PySequence_GetItem(declared, i);
        if (!s || !d) { Py_XDECREF(s); Py_XDECREF(d); return NULL; }
        h.scope[i] = (int)PyLong_AsLong(s);
        h.declared[i] = (int)PyLong_AsLong(d);
        Py_DECREF(s);
        Py_DECREF(d);
    }
    if (PyErr_Occurred()) return NULL;
    int totals[MAXP];
    totals_of(sp, &h, totals);
    return tuple_of_ints(totals, sp->teams);
}

PyDoc_STRVAR(layout_doc,
"layout(hidden, base, fill, clue_seats, clue_floors, clue_weights, tries, seed)\n"
"-> (hands, stock, seed)\n\n"
"A world's hidden layout by weighted rejection (scopa.bots.worlds.python_layout): hidden\n"
"(ascending cards) shuffled into each seat's fill count on top of its base mask, the rest\n"
"the stock; with clues, up to tries layouts, each kept with probability its weight (the\n"
"likeliest drawn if none is); clue_weights holds 40 native doubles per clue.");

static PyObject *k_layout(PyObject *self, PyObject *args) {
    PyObject *hidden, *base, *fill, *cseats, *cfloors;
    Py_buffer wb;
    int tries;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOOOOy*iK", &hidden, &base, &fill, &cseats, &cfloors, &wb,
                          &tries, &seed))
        return NULL;
    PyObject *result = NULL;
    int cards[40], sizes[MAXP], seats[64];
    uint64_t bases[MAXP];
    double floors[64];
    Py_ssize_t nh = PyList_Check(hidden) ? PyList_GET_SIZE(hidden) : -1;
    Py_ssize_t n = PyList_Check(base) ? PyList_GET_SIZE(base) : -1;
    Py_ssize_t nc = PyList_Check(cseats) ? PyList_GET_SIZE(cseats) : -1;
    if (nh < 0 || nh > 40 || n < 2 || n > MAXP || !PyList_Check(fill) || PyList_GET_SIZE(fill) != n
        || nc < 0 || nc > 64 || !PyList_Check(cfloors) || PyList_GET_SIZE(cfloors) != nc
        || wb.len != (Py_ssize_t)(nc * 40 * sizeof(double)) || tries < 1) {
        PyErr_SetString(PyExc_ValueError, "layout: malformed arguments");
        goto done;
    }
    int total = 0;
    for (Py_ssize_t i = 0; i < nh; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(hidden, i));
        if (c < 0 || c >= 40) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "layout: hidden holds a non-card");
            goto done;
        }
        cards[i] = (int)c;
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        long k = PyLong_AsLong(PyList_GET_ITEM(fill, s));
        unsigned long long b = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(base, s));
        if (PyErr_Occurred()) goto done;
        if (k < 0 || k > 40) { PyErr_SetString(PyExc_ValueError, "layout: bad fill"); goto done; }
        sizes[s] = (int)k;
        bases[s] = b;
        total += (int)k;
    }
    if (total > nh) { PyErr_SetString(PyExc_ValueError, "layout: more to fill than hidden"); goto done; }
    for (Py_ssize_t i = 0; i < nc; i++) {
        long st = PyLong_AsLong(PyList_GET_ITEM(cseats, i));
        double f = PyFloat_AsDouble(PyList_GET_ITEM(cfloors, i));
        if (PyErr_Occurred()) goto done;
        if (st < 0 || st >= n) { PyErr_SetString(PyExc_ValueError, "layout: bad clue seat"); goto done; }
        seats[i] = (int)st;
        floors[i] = f;
    }
    const double *weights = (const double *)wb.buf;
    uint64_t x = seed;
    int perm[40], best[40];
    double best_w = -1.0;
    memcpy(best, cards, sizeof(int) * (size_t)nh); /* as python_layout: no weight is above -1 */
    for (int t = 0; t < tries; t++) {
        memcpy(perm, cards, sizeof(int) * (size_t)nh);
        for (int i = (int)nh - 1; i > 0; i--) {
            int j = (int)pick(&x, (uint32_t)(i + 1));
            int tmp = perm[i]; perm[i] = perm[j]; perm[j] = tmp;
        }
        if (!nc) { memcpy(best, perm, sizeof(perm)); break; }
        uint64_t hands[MAXP];
        int pos = 0;
        for (int s = 0; s < n; s++) {
            hands[s] = bases[s];
            for (int k = 0; k < sizes[s]; k++) hands[s] |= 1ULL << perm[pos++];
        }
        double w = 1.0;
        for (int i = 0; i < nc; i++) {
            double m = floors[i];
            const double *wt = weights + 40 * i;
            uint64_t h = hands[seats[i]];
            while (h) {
                int c = __builtin_ctzll(h);
                h &= h - 1;
                if (wt[c] < m) m = wt[c];
            }
            w *= m;
        }
        x = x * LCG_A + LCG_C;
        double u = (double)(x >> 11) * (1.0 / 9007199254740992.0);
        if (u < w) { memcpy(best, perm, sizeof(perm)); break; }
        if (w > best_w) { best_w = w; memcpy(best, perm, sizeof(perm)); }
    }
    PyObject *hands_out = PyList_New(n), *stock = PyList_New(nh - total);
    if (!hands_out || !stock) { Py_XDECREF(hands_out); Py_XDECREF(stock); goto done; }
    int pos = 0;
    for (int s = 0; s < n; s++) {
        uint64_t h = bases[s];
        for (int k = 0; k < sizes[s]; k++) h |= 1ULL << best[pos++];
        PyList_SET_ITEM(hands_out, s, PyLong_FromUnsignedLongLong(h));
    }
    for (int i = 0; pos < nh; i++, pos++) PyList_SET_ITEM(stock, i, PyLong_FromLong(best[pos]));
    result = Py_BuildValue("NNK", hands_out, stock, (unsigned long long)x);
done:
    PyBuffer_Release(&wb);
    return result;
}

static PyMethodDef methods[] = {
    {"layout", k_layout, METH_VARARGS, layout_doc},
    {"playout", k_playout, METH_VARARGS, playout_doc},
    {"deals", k_deals, METH_VARARGS, deals_doc},
    {"captures", k_captures, METH_VARARGS, captures_doc},
    {"totals", k_totals, METH_VARARGS, totals_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "scopa._kernel",
    "Random playouts and deals in C (see scopa/kernel.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    for (int m = 0; m < 1024; m++) {
        uint32_t k = 0;
        uint64_t span = 0;
        for (int r = 1; r <= 10; r++)
            if (m >> (r - 1) & 1) { k += 1U << (3 * (r - 1)); span |= rank_mask(r); }
        suit_key[m] = k;
        field_of[m] = k * 7;
        bits10[m] = (uint8_t)__builtin_popcount((unsigned)m);
        span_of[m] = span;
    }
    for (int m = 1; m < 1024; m++) {
        int bt = 0, br = 0;
        for (int r = 0; r < 10; r++)
            if (m >> r & 1) {
                if (PRIM_TEN[r + 1] > bt) bt = PRIM_TEN[r + 1];
                if (PRIM_RANK[r + 1] > br) br = PRIM_RANK[r + 1];
            }
        best_ten[m] = bt;
        best_rank[m] = br;
    }
    PyObject *mod = PyModule_Create(&module);
    /* bumped with every change of meaning here: scopa/kernel.py ignores a stale build */
    if (mod && (PyModule_AddIntConstant(mod, "SPEC_SIZE", (long)sizeof(Spec)) < 0
                || PyModule_AddIntConstant(mod, "ABI", 2) < 0)) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
