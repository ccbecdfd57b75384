/* Private: the solver's search at trick boundaries, compiled (see _solver_core.NativeSearch).
 *
 * Plain C99 with no Python in it: _solver_native.c is its Python binding
 * (the type Core), and _solver_search.h what the two share.
 *
 * The same question as _solver_core.Search's probe: from a trick boundary,
 * with the hands h0 (the declarer), h1 and h2 (the adversaries after him)
 * as 64-bit card masks and `lead` the position on lead, bound the units the
 * declarer collects from here on (the cards left plus the last-trick
 * bonus), fail-soft around the threshold t.
 *
 * Nothing of the rules is written here. Python passes, from the engine:
 *   - the four suits as card masks (which cards are of one suit);
 *   - each card's units and a class of its units (equal units, equal class);
 *   - the last-trick bonus and whether suit must be followed.
 * What this file assumes (checked in Python against Card.beats before the
 * module is used): cards are bits 0..39, each suit a run of consecutive
 * bits (checked here too); a card beats another if and only
 * if both are of one suit and its bit is the lower one; a card of another
 * suit than the one led never wins the trick (no trumps); a trick's winner
 * leads the next; when suit must be followed a hand holding the suit led
 * plays one of those cards, else any card.
 *
 * The search: alpha-beta over whole tricks, null window, fail-soft; a
 * transposition table in native memory (4-way buckets; 16-byte entries for
 * positions of six tricks or fewer, most of them, and 32-byte entries in a
 * table of their own for the others; each starts small and grows as it
 * fills, up to a size the caller sets) keyed on the relative position (each suit as the holders and unit
 * classes of its cards left, strongest first; the four suits sorted, being
 * interchangeable when there are no trumps) keeping a lower and an upper
 * bound and the lead that decided; bounds from cashing (as in Python), tried
 * before the table, each suit's figures memoised; equivalent cards (one
 * hand, one suit, no other live card between them, the same unit class)
 * searched once; leads ordered by the stored lead, two killer leads per
 * (role, tricks left), their history with six tricks left or more, then sure
 * winners and low cards.
 */
#include "_solver_search.h"

#include <stdlib.h>
#include <string.h>
#if defined(_MSC_VER)
#include <intrin.h>
#endif

#define ABORT SEARCH_ABORT

/* Bit counts. CTZ and CLZ are never given 0. Without the POPCNT instruction
 * (a wheel targets the baseline x86-64) GCC's builtin popcount is a library
 * call; the sum of bits by halves below is inlined and as fast. MSVC has the
 * bit scans as intrinsics (64-bit targets); its __popcnt64 is the POPCNT
 * instruction itself, which the baseline lacks, so it sums by halves too. */
#if defined(__GNUC__) || defined(__clang__)
#define CTZ(x) __builtin_ctzll(x)
#define CLZ(x) __builtin_clzll(x)
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
static __forceinline int CTZ(u64 x) {
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
static __forceinline int CLZ(u64 x) {
    unsigned long i;
    _BitScanReverse64(&i, x);
    return 63 - (int)i;
}
#else
static int CLZ(u64 x) { int n = 0; while (!(x >> 63)) { x <<= 1; n++; } return n; }
static int CTZ(u64 x) { int n = 0; while (!(x & 1)) { x >>= 1; n++; } return n; }
#endif
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || defined(__aarch64__))
#define POPCOUNT(x) __builtin_popcountll(x)
#else
static inline int POPCOUNT(u64 x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif

/* A position's key: the four suits' codes (see suit_code), sorted, and the
 * leader, packed in three words (a code has at most 41 bits: a suit has at
 * most 10 cards, checked when the core is made). */
typedef struct {
    u64 w[3];
} Key;

/* A deep table's entry, 32 bytes: the key (w[0] == 0 for an empty slot, as a code
 * starts with a 1 bit), bounds on the declarer's units from the position
 * on, the lead that decided it last (-1: none) and the tricks left. */
typedef struct {
    u64 w[3];
    int8_t lo, hi, best, depth;
} Entry;

/* Each transposition table has buckets of WAYS entries (one or two cache lines),
 * 2**bits entries in all: it starts at FIRST_BITS and grows fourfold when
 * half full, or from 8 MiB on (2**LARGE_BITS entries of 32 bytes, twice as many
 * of 16) when seven eighths full (so that only the slowest deals pay for a
 * table larger than the caches), up to the most the caller allows: 2**bits
 * compact entries and a quarter as many deep ones. */
#define WAYS 4
#define FIRST_BITS 12
#define LARGE_BITS 18

/* Positions with at most SMALL_LEFT tricks left (most of a search's) have a
 * table of their own with entries of 16 bytes, half the size: their key
 * packed in 96 bits (see small_key_of), so twice as many of them fit in the
 * caches. The deep table above keeps the others. */
#define SMALL_LEFT 6
typedef struct {
    u64 k0;
    uint32_t k1; /* its top bit set: 0 marks an empty slot */
    int8_t lo, hi, best, depth;
} Small;

typedef struct {
    u64 k0;
    uint32_t k1;
} SmallKey;

/* What one suit of a position gives the key and the bounds: memoised by the
 * suit's three hands (the cards held by hands 0, 1, 2, shifted to bit 0). */
struct SuitMemo {
    u64 tag;         /* h0 | h1 << 10 | h2 << 20 of the suit; ~0: an empty slot */
    u64 code;        /* the suit's code in the key (suit_code) */
    int8_t info[16]; /* suit_info's figures (the last unused) */
};

/* Suits memoised: a direct-mapped cache of 2**MEMO_BITS entries (128 KiB). */
#define MEMO_BITS 12

/* Leads are ordered by their history (the nodes they decided) from this many tricks left. */
#define HISTORY_FROM 6

/* --- moves ---------------------------------------------------------------- */

/* The strongest card of a mask of one suit (64 if empty). */
static inline int top(u64 m) { return m ? CTZ(m) : 64; }

typedef struct {
    int card;
    long long score;
} Move;

/* How a hand's block of equivalent-in-rank cards decides the trick: set by the
 * caller for the hand to move. kind 0: a lead; 1: the second hand; 2: the last. */
typedef struct {
    int kind;
    int mover;  /* the hand's position */
    int c1;     /* the card led (kinds 1, 2) */
    int best;   /* the winning card so far (kind 2) */
    int wp;     /* its position (kind 2) */
    int p1, p3; /* the leader's and the last hand's positions (kind 1) */
    u64 opp;    /* kind 0: the other side's cards; kind 1: the last hand's cards */
} Ctx;

static inline int side(int pos) { return pos != 0; }

/* Whether the trick's winning side is settled when the hand plays a card
 * ranking as `c` (the strongest of its block); *own: it is the hand's side. */
static inline int settled(const Search *S, const Ctx *x, int c, int *own) {
    if (x->kind == 0) { /* surely won by the leader's side if above all the other side's cards */
        *own = 1;
        return c < top(x->opp & S->suit[S->suit_of[c]]);
    }
    if (x->kind == 2) {
        int w = (S->suit_of[c] == S->suit_of[x->best] && c < x->best) ? x->mover : x->wp;
        *own = side(w) == side(x->mover);
        return 1;
    }
    int s = S->suit_of[x->c1];
    int beats = S->suit_of[c] == s && c < x->c1;
    int best = beats ? c : x->c1, wp = beats ? x->mover : x->p1;
    /* settled if the last hand cannot beat it, or is of the side winning it */
    if (top(x->opp & S->suit[s]) > best || side(x->p3) == side(wp)) {
        *own = side(wp) == side(x->mover);
        return 1;
    }
    return 0;
}

/* The cards of `playable` worth searching, strongest first in each suit.
 * Cards of one suit with no card of `out` (the other hands' and the trick's)
 * between them form a block: they win and lose the same tricks. If the block
 * settles which side takes the trick, one card of it: the most units to the
 * own side, else the fewest (the strongest of those); if not, the strongest
 * card of each unit class. */
static int reps(const Search *S, u64 playable, u64 out, const Ctx *x, Move *moves) {
    int n = 0;
    for (int s = 0; s < 4; s++) {
        u64 m = playable & S->suit[s], o = out & S->suit[s];
        while (m) {
            int c = CTZ(m); /* the block's strongest card */
            u64 below = o & ~(((u64)2 << c) - 1); /* the other hands' cards under it */
            u64 block = below ? m & (((u64)1 << CTZ(below)) - 1) : m;
            m &= ~block;
            u64 picks = 0;
            int own;
            if (!(block & (block - 1))) { /* one card */
                picks = block;
            } else if (settled(S, x, c, &own)) {
                const u64 *by_units = S->by_units[own];
                for (int i = 0; !picks; i++) { /* a class of the block's is met */
                    u64 b = block & by_units[i];
                    picks = b & (~b + 1);
                }
            } else {
                for (int k = 0; k < 4; k++) {
                    u64 b = block & S->class_mask[k];
                    picks |= b & (~b + 1);
                }
            }
            for (; picks; picks &= picks - 1) {
                moves[n].card = CTZ(picks);
                moves[n].score = 0;
                n++;
            }
        }
    }
    return n;
}

static void order(Move *moves, int n) {
    for (int i = 1; i < n; i++) {
        Move m = moves[i];
        int j = i - 1;
        while (j >= 0 && moves[j].score < m.score) {
            moves[j + 1] = moves[j];
            j--;
        }
        moves[j + 1] = m;
    }
}


/* --- bounds from cashing (as _solver_moves.suit_info and bounds) ------------------- */

/* The fewest (most) units `count` cards of `mask` hold, all of them if fewer:
 * the cards counted class by class of units, the cheapest (dearest) first. */
static int least_units(const Search *S, u64 mask, int count, int most) {
    int sum = 0;
    for (int i = 0; i < S->nclass && count > 0; i++) {
        int n = POPCOUNT(mask & S->by_units[most][i]);
        if (n > count) n = count;
        sum += n * S->units_by[most][i];
        count -= n;
    }
    return sum;
}

static int units_of(const Search *S, u64 mask) {
    int sum = 0;
    while (mask) {
        sum += S->units[CTZ(mask)];
        mask &= mask - 1;
    }
    return sum;
}

/* What a leader surely takes in one suit by leading it from the top: out[0]
 * tricks, out[1] whether that is all he holds of it, out[2] the units his side
 * gains with the declarer alone, out[3] with the partner next, out[4] last. */
static void cash(const Search *S, u64 mine, u64 x, u64 y, u64 partner, int *out) {
    if (!mine) {
        out[0] = out[2] = out[3] = out[4] = 0;
        out[1] = 1;
        return;
    }
    int top_other = top(x | y);
    u64 below = top_other >= 64 ? ~(u64)0 : (((u64)1 << top_other) - 1);
    u64 run = mine & below;
    int tricks = POPCOUNT(run), held = POPCOUNT(mine);
    int longest;
    if (partner && (63 - CLZ(mine)) < top(partner))
        longest = POPCOUNT((x | y) & ~partner);
    else
        longest = POPCOUNT(x) > POPCOUNT(y) ? POPCOUNT(x) : POPCOUNT(y);
    int own;
    if (S->follow && tricks && tricks >= longest) {
        tricks = held;
        own = units_of(S, mine);
    } else {
        own = units_of(S, run);
    }
    out[0] = tricks;
    out[1] = tricks == held;
    if (!(S->follow && tricks)) {
        out[2] = out[3] = out[4] = own;
        return;
    }
    int lx = least_units(S, x, tricks, 0), ly = least_units(S, y, tricks, 0);
    out[2] = own + lx + ly;
    out[3] = own + least_units(S, x, tricks, 1) + ly;
    out[4] = own + lx + least_units(S, y, tricks, 1);
}

/* One suit of a position, indexed as _solver_moves.suit_info's tuple (0 unused). */
static void suit_info(const Search *S, u64 a, u64 b, u64 c, int *info) {
    int d[5], x1[5], x2[5];
    u64 all = a | b | c;
    int t = top(all);
    info[10] = t == 64 ? -1 : (a >> t & 1) ? 0 : (b >> t & 1) ? 1 : 2;
    cash(S, a, b, c, 0, d);
    cash(S, b, c, a, c, x1);
    cash(S, c, a, b, b, x2);
    info[1] = d[0], info[2] = d[1], info[3] = d[2];
    info[4] = x1[0], info[5] = x1[1], info[6] = x1[3];
    info[7] = x2[0], info[8] = x2[1], info[9] = x2[4];
    int f = S->follow;
    info[11] = f && d[0] ? least_units(S, b, d[0], 0) : 0;
    info[12] = f && d[0] ? least_units(S, c, d[0], 0) : 0;
    info[13] = f && x1[0] ? least_units(S, a, x1[0], 0) : 0;
    info[14] = f && x2[0] ? least_units(S, a, x2[0], 0) : 0;
}

static inline int max0(int v) { return v > 0 ? v : 0; }

/* Bound the declarer's units from a trick boundary by cashing (see _solver_moves.bounds). */
static void bounds(const Search *S, const int8_t (*info)[16], const u64 *h, int lead, int total, int *lo, int *hi) {
    if (lead == 0) {
        int gain = 0, every = 1, owners = 0, tops = 0, cashed = 0, follow1 = 0, follow2 = 0;
        for (int s = 0; s < 4; s++) {
            if (!(h[0] & S->suit[s])) continue;
            gain += info[s][3];
            every = every && info[s][2] == 1;
            if (info[s][1]) {
                tops = 1;
                cashed += info[s][1];
                follow1 += info[s][11];
                follow2 += info[s][12];
            } else {
                owners |= 1 << info[s][10];
            }
        }
        if (every) { *lo = *hi = total; return; }
        if (cashed)
            gain += max0(least_units(S, h[1], cashed, 0) - follow1) + max0(least_units(S, h[2], cashed, 0) - follow2);
        if (tops) { *lo = gain; *hi = total; return; }
        int best = 0;
        for (int owner = 1; owner <= 2; owner++) {
            if (!(owners >> owner & 1)) continue;
            int at = owner == 1 ? 4 : 7;
            int taken = 0, cash_n = 0, follow0 = 0;
            every = 1;
            for (int s = 0; s < 4; s++) {
                if (!(h[owner] & S->suit[s])) continue;
                taken += info[s][at + 2];
                every = every && info[s][at + 1] == 1;
                cash_n += info[s][at];
                follow0 += info[s][12 + owner];
            }
            if (cash_n) taken += max0(least_units(S, h[0], cash_n, 0) - follow0);
            if (!every && total - taken > best) best = total - taken;
        }
        *lo = gain;
        *hi = best;
        return;
    }
    int at = lead == 1 ? 4 : 7;
    u64 hand = h[lead];
    int taken = 0, cashed = 0, follow0 = 0, every = 1, topped = 1;
    for (int s = 0; s < 4; s++) {
        if (!(hand & S->suit[s])) continue;
        taken += info[s][at + 2];
        every = every && info[s][at + 1] == 1;
        topped = topped && info[s][1] > 0;
        cashed += info[s][at];
        follow0 += info[s][12 + lead];
    }
    if (every) { *lo = *hi = 0; return; }
    if (cashed) taken += max0(least_units(S, h[0], cashed, 0) - follow0);
    if (!topped) { *lo = 0; *hi = total - taken; return; }
    int gain = 0, cashed1 = 0, follow1 = 0, follow2 = 0;
    every = 1;
    for (int s = 0; s < 4; s++) {
        if (!(h[0] & S->suit[s])) continue;
        gain += info[s][3];
        every = every && info[s][2] == 1;
        cashed1 += info[s][1];
        follow1 += info[s][11];
        follow2 += info[s][12];
    }
    if (every) { *lo = *hi = total; return; }
    if (cashed1)
        gain += max0(least_units(S, h[1], cashed1, 0) - follow1) + max0(least_units(S, h[2], cashed1, 0) - follow2);
    *lo = gain;
    *hi = total - taken;
}

/* --- the key and the transposition table ------------------------------------- */

/* A suit's code in the key: a 1 bit, then for each of its cards left, the
 * strongest first, the position holding it (2 bits) and its unit class (2
 * bits). The ranks are left out: cards of one suit win the same tricks
 * whatever ranks are missing between them. */
static u64 suit_code(const Search *S, int s, u64 h0, u64 h1, u64 h2) {
    u64 m = (h0 | h1 | h2) & S->suit[s];
    u64 code = 1;
    while (m) {
        int c = CTZ(m);
        m &= m - 1;
        u64 who = (h0 >> c & 1) ? 0 : (h1 >> c & 1) ? 1 : 2;
        code = code << 4 | who << 2 | (u64)S->uclass[c];
    }
    return code;
}

/* The memo entry of suit s of a position, filled in if it was not there. */
static const SuitMemo *suit_memo(Search *S, int s, u64 h0, u64 h1, u64 h2) {
    int sh = S->shift[s];
    u64 tag = (h0 & S->suit[s]) >> sh | ((h1 & S->suit[s]) >> sh) << 10 | ((h2 & S->suit[s]) >> sh) << 20;
    SuitMemo *m = S->memo + ((tag * 0x9E3779B97F4A7C15ULL) >> (64 - MEMO_BITS));
    if (m->tag != tag) {
        int info[15] = {0}; /* info[0] is unused */
        suit_info(S, h0 & S->suit[s], h1 & S->suit[s], h2 & S->suit[s], info);
        for (int i = 0; i < 15; i++) m->info[i] = (int8_t)info[i];
        m->info[15] = 0;
        m->code = suit_code(S, s, h0, h1, h2);
        m->tag = tag;
    }
    return m;
}

/* The suits' codes sorted: the four suits are interchangeable when there are no trumps. */
static inline void sort_codes(const u64 *codes, u64 *c) {
    u64 x;
    c[0] = codes[0], c[1] = codes[1], c[2] = codes[2], c[3] = codes[3];
#define SWAP(a, b) if (c[a] > c[b]) { x = c[a]; c[a] = c[b]; c[b] = x; }
    SWAP(0, 1) SWAP(2, 3) SWAP(0, 2) SWAP(1, 3) SWAP(1, 2)
#undef SWAP
}

/* The key of a position in the deep table: the sorted codes and the leader. */
static void key_of(const u64 *c, int lead, Key *k) {
    /* 41 bits a code: c0 and the low 23 bits of c1; c1's other 18 and c2; c3 and the lead */
    k->w[0] = c[0] | c[1] << 41;
    k->w[1] = c[1] >> 23 | c[2] << 18;
    k->w[2] = c[3] | (u64)lead << 41;
}

/* The key of a position with at most SMALL_LEFT tricks left (3 * SMALL_LEFT = 18
 * cards at most, 72 bits of cards): each sorted code's cards (4 bits each, its
 * leading 1 bit left out) one after the other, low bits in k0 and the rest
 * (8 bits at most) in k1, beside each code's count of cards (4 bits each: the
 * cards are read back code by code), the leader and the top bit. */
static void small_key_of(const u64 *c, int lead, SmallKey *k) {
    u64 lo = 0, hi = 0;
    uint32_t counts = 0;
    for (int i = 0; i < 4; i++) {
        int bits = 63 - CLZ(c[i]); /* 4 a card */
        counts = counts << 4 | (uint32_t)(bits >> 2);
        if (!bits) continue;
        hi = hi << bits | lo >> (64 - bits);
        lo = lo << bits | (c[i] ^ ((u64)1 << bits));
    }
    k->k0 = lo;
    k->k1 = (uint32_t)1 << 31 | (uint32_t)lead << 24 | counts << 8 | (uint32_t)(hi & 0xff);
}

static inline u64 mix(u64 h) {
    h ^= h >> 31;
    h *= 0x94D049BB133111EBULL;
    h ^= h >> 29;
    return h;
}

static inline u64 hash_of(const Key *k) {
    return mix(k->w[0] * 0x9E3779B97F4A7C15ULL ^ k->w[1] * 0xC2B2AE3D27D4EB4FULL ^ k->w[2] * 0x165667B19E3779F9ULL);
}

static inline u64 small_hash_of(const SmallKey *k) {
    return mix(k->k0 * 0x9E3779B97F4A7C15ULL ^ k->k1 * 0xC2B2AE3D27D4EB4FULL);
}

static inline int same_key(const Entry *e, const Key *k) {
    return e->w[0] == k->w[0] && e->w[1] == k->w[1] && e->w[2] == k->w[2];
}

static inline int same_small(const Small *e, const SmallKey *k) { return e->k0 == k->k0 && e->k1 == k->k1; }

static inline Entry *bucket_of(const Table *T, const Key *k) {
    return (Entry *)T->entries + WAYS * (hash_of(k) & (((u64)1 << (T->bits - 2)) - 1)); /* WAYS == 4 */
}

static inline Small *small_bucket_of(const Table *T, const SmallKey *k) {
    return (Small *)T->entries + WAYS * (small_hash_of(k) & (((u64)1 << (T->bits - 2)) - 1));
}

/* Allocate a zeroed table of 2**bits entries of `size` bytes, 64-byte aligned; 0 if out of memory. */
static int new_table(Table *T, int bits, size_t size) {
    void *block = calloc(((size_t)1 << bits) * size + 64, 1);
    if (!block) return 0;
    T->block = block;
    T->entries = (void *)(((uintptr_t)block + 63) & ~(uintptr_t)63);
    T->bits = bits;
    T->used = 0;
    return 1;
}

static void free_table(Table *T) {
    free(T->block);
    T->block = NULL;
    T->entries = NULL;
    T->used = 0;
}

/* The slot for key k in its bucket: its own, else an empty one, else the one
 * with the fewest tricks left (replaced). *fresh: it was empty. */
static Entry *slot_for(Entry *b, const Key *k, int *fresh) {
    Entry *e = b;
    for (int i = 0; i < WAYS; i++)
        if (same_key(b + i, k)) {
            *fresh = 0;
            return b + i;
        }
    for (int i = 0; i < WAYS; i++)
        if (!b[i].w[0]) {
            *fresh = 1;
            return b + i;
        }
    for (int i = 1; i < WAYS; i++)
        if (b[i].depth < e->depth) e = b + i;
    *fresh = 0;
    return e;
}

static Small *small_slot_for(Small *b, const SmallKey *k, int *fresh) {
    Small *e = b;
    for (int i = 0; i < WAYS; i++)
        if (same_small(b + i, k)) {
            *fresh = 0;
            return b + i;
        }
    for (int i = 0; i < WAYS; i++)
        if (!b[i].k1) {
            *fresh = 1;
            return b + i;
        }
    for (int i = 1; i < WAYS; i++)
        if (b[i].depth < e->depth) e = b + i;
    *fresh = 0;
    return e;
}

/* Grow a table fourfold (at most to its max_bits), the entries moved over
 * (kept as it is if the memory is not there: the table only saves work). */
static void grow(Table *T, int small) {
    Table old = *T;
    u64 n = (u64)1 << old.bits;
    if (!new_table(T, T->bits + 2 > T->max_bits ? T->max_bits : T->bits + 2, small ? sizeof(Small) : sizeof(Entry))) {
        *T = old;
        T->max_bits = T->bits; /* do not try again */
        return;
    }
    int fresh;
    for (u64 i = 0; i < n; i++) {
        if (small) {
            const Small *o = (const Small *)old.entries + i;
            if (!o->k1) continue;
            SmallKey k = {o->k0, o->k1};
            *small_slot_for(small_bucket_of(T, &k), &k, &fresh) = *o;
        } else {
            const Entry *o = (const Entry *)old.entries + i;
            if (!o->w[0]) continue;
            Key k = {{o->w[0], o->w[1], o->w[2]}};
            *slot_for(bucket_of(T, &k), &k, &fresh) = *o;
        }
        T->used += fresh;
    }
    free(old.block);
}

/* Grow a table that is full enough: fourfold when half full, from 2**large_bits
 * entries on when seven eighths full. */
static inline void maybe_grow(Table *T, int fresh, int large_bits, int small) {
    T->used += fresh;
    if (T->bits < T->max_bits) {
        u64 size = (u64)1 << T->bits;
        if (T->bits < large_bits ? T->used * 2 > size : T->used * 8 > size * 7) grow(T, small);
    }
}

/* Keep what a search of the position learnt: v, fail-soft around t, a lower
 * bound if v >= t, else an upper one; lo and hi the bounds it started from.
 * The entry's fields, in either kind of table. */
#define KEEP(e, depth, lo, hi, v, t, best)                      \
    do {                                                        \
        if (fresh_key) {                                        \
            (e)->lo = (int8_t)(lo);                             \
            (e)->hi = (int8_t)(hi);                             \
            (e)->best = -1;                                     \
            (e)->depth = (int8_t)(depth);                       \
        }                                                       \
        if ((v) >= (t)) {                                       \
            if ((v) > (e)->lo) (e)->lo = (int8_t)(v);           \
        } else if ((v) < (e)->hi) {                             \
            (e)->hi = (int8_t)(v);                              \
        }                                                       \
        if ((best) >= 0) (e)->best = (int8_t)(best);            \
    } while (0)

static void store(Search *S, const Key *k, int depth, int lo, int hi, int v, int t, int best) {
    int fresh;
    Entry *e = slot_for(bucket_of(&S->deep, k), k, &fresh);
    int fresh_key = !same_key(e, k);
    if (fresh_key) {
        e->w[0] = k->w[0];
        e->w[1] = k->w[1];
        e->w[2] = k->w[2];
    }
    KEEP(e, depth, lo, hi, v, t, best);
    maybe_grow(&S->deep, fresh, LARGE_BITS, 0);
}

static void small_store(Search *S, const SmallKey *k, int depth, int lo, int hi, int v, int t, int best) {
    int fresh;
    Small *e = small_slot_for(small_bucket_of(&S->small, k), k, &fresh);
    int fresh_key = !same_small(e, k);
    if (fresh_key) {
        e->k0 = k->k0;
        e->k1 = k->k1;
    }
    KEEP(e, depth, lo, hi, v, t, best);
    maybe_grow(&S->small, fresh, LARGE_BITS + 1, 1);
}

/* --- the search --------------------------------------------------------------- */

static int check_limits(Search *S) {
    S->nodes++;
    if (S->nodes == S->limit) return 1;
    if (!(S->nodes & 1023) && S->deadline > 0.0) {
        double d = S->clock(S->clock_data);
        if (d != d || d > S->deadline) return 1; /* NaN: the clock failed */
    }
    return 0;
}

static int probe(Search *S, u64 h0, u64 h1, u64 h2, int lead, int rest, int t);

/* The winner's position of a trick of cards c1 c2 c3 led by p1. */
static inline int winner(const Search *S, int c1, int c2, int c3, int p1) {
    int s = S->suit_of[c1], best = c1, w = p1;
    if (S->suit_of[c2] == s && c2 < best) { best = c2; w = (p1 + 1) % 3; }
    if (S->suit_of[c3] == s && c3 < best) { w = (p1 + 2) % 3; }
    return w;
}

static int probe(Search *S, u64 h0, u64 h1, u64 h2, int lead, int rest, int t) {
    if (t <= 0) return 0;
    int total = rest + S->bonus;
    if (t > total) return total;
    u64 h[3] = {h0, h1, h2};
    int p1 = lead, p2 = (lead + 1) % 3, p3 = (lead + 2) % 3;
    u64 a1 = h[p1], a2 = h[p2], a3 = h[p3];
    int left = POPCOUNT(a1);
    if (left <= 1) { /* the last trick: every card is forced */
        if (!left) return 0;
        return winner(S, CTZ(a1), CTZ(a2), CTZ(a3), p1) == 0 ? total : 0;
    }
    u64 codes[4];
    int8_t info[4][16];
    for (int s = 0; s < 4; s++) { /* copied: two suits may share a memo slot */
        const SuitMemo *m = suit_memo(S, s, h0, h1, h2);
        codes[s] = m->code;
        memcpy(info[s], m->info, 16);
    }
    int hint = -1, lo, hi;
    bounds(S, (const int8_t (*)[16])info, h, lead, total, &lo, &hi);
    if (lo >= t) return lo;
    if (hi < t) return hi;
    u64 sorted[4];
    sort_codes(codes, sorted);
    Key k = {{0, 0, 0}}; /* one of the two keys is used: set both for the compiler */
    SmallKey sk = {0, 0};
    const int8_t *found = NULL; /* the entry's lo, hi, best */
    if (left <= SMALL_LEFT) {
        small_key_of(sorted, lead, &sk);
        Small *b = small_bucket_of(&S->small, &sk);
        for (int i = 0; i < WAYS; i++)
            if (same_small(b + i, &sk)) {
                found = &b[i].lo;
                break;
            }
    } else {
        key_of(sorted, lead, &k);
        Entry *b = bucket_of(&S->deep, &k);
        for (int i = 0; i < WAYS; i++)
            if (same_key(b + i, &k)) {
                found = &b[i].lo;
                break;
            }
    }
    if (found) { /* both bound the same value: keep the tighter */
        if (found[0] > lo) lo = found[0];
        if (found[1] < hi) hi = found[1];
        hint = found[2];
        if (lo >= t) return lo;
        if (hi < t) return hi;
    }
    if (check_limits(S)) return ABORT;

    int max1 = p1 == 0, max2 = p2 == 0, max3 = p3 == 0;
    int role = max1 ? 0 : (p2 ? 1 : 2);
    int *killers = S->killer[role][left & 15];
    int follow = S->follow;
    Ctx x;

    Move m1[16];
    u64 partner = max1 ? 0 : (max2 ? a3 : a2); /* an adversary's partner; 0 for the declarer */
    u64 opp = max1 ? (a2 | a3) : h[0];
    x.kind = 0;
    x.mover = p1;
    x.opp = opp;
    int n1c = reps(S, a1, a2 | a3, &x, m1);
    for (int i = 0; i < n1c; i++) {
        int c = m1[i].card, s = S->suit_of[c];
        u64 sm = S->suit[s];
        int u = S->units[c];
        int sc;
        if (c < top((a2 | a3) & sm)) sc = 1000 + 4 * u;   /* wins the trick */
        else if (c < top(opp & sm)) sc = 800 + 4 * u;           /* his side wins it */
        else if (partner && top(partner & sm) < top(opp & sm)) sc = 500 - 4 * u;
        else sc = -4 * u + S->rank[c];
        m1[i].score = sc;
    }
    order(m1, n1c);
    if (left >= HISTORY_FROM) { /* a stable sort: ties keep the order above */
        for (int i = 0; i < n1c; i++) m1[i].score = S->history[role][m1[i].card];
        order(m1, n1c);
    }
    { /* the stored lead first, then the killers */
        int front[3] = {killers[1], killers[0], hint};
        for (int f = 0; f < 3; f++) {
            if (front[f] < 0) continue;
            for (int i = 1; i < n1c; i++) {
                if (m1[i].card == front[f]) {
                    Move m = m1[i];
                    memmove(m1 + 1, m1, (size_t)i * sizeof(Move));
                    m1[0] = m;
                    break;
                }
            }
        }
    }

    int v1 = max1 ? -1 : 99, best1 = -1;
    u64 n[3];
    for (int i1 = 0; i1 < n1c; i1++) {
        int c1 = m1[i1].card;
        int s = S->suit_of[c1];
        u64 sm = S->suit[s];
        u64 r1 = a1 ^ ((u64)1 << c1);
        int v2 = max2 ? -1 : 99;
        u64 play2 = (follow && (a2 & sm)) ? a2 & sm : a2;
        Move m2[16];
        x.kind = 1;
        x.mover = p2;
        x.c1 = c1;
        x.p1 = p1;
        x.p3 = p3;
        x.opp = a3;
        int n2c = reps(S, play2, a1 | a3, &x, m2);
        {
            int t3 = top(a3 & sm);
            for (int i = 0; i < n2c; i++) {
                int c = m2[i].card, u = S->units[c];
                int wins = S->suit_of[c] == s && c < c1;
                int best = wins ? c : c1;
                int wp = wins ? p2 : p1;
                int sc;
                if (t3 > best) /* the last hand cannot beat it: the trick is settled */
                    sc = ((wp == 0) == max2) ? 1000 + 4 * u + S->rank[c] : -4 * u + S->rank[c];
                else if (max1 && !wins) /* after the declarer's lead the partner can take it */
                    sc = 900 + 4 * u + S->rank[c];
                else
                    sc = -4 * u + S->rank[c];
                m2[i].score = sc;
            }
            order(m2, n2c);
        }
        for (int i2 = 0; i2 < n2c; i2++) {
            int c2 = m2[i2].card;
            u64 r2 = a2 ^ ((u64)1 << c2);
            int best = c1, wp = p1;
            if (S->suit_of[c2] == s && c2 < c1) { best = c2; wp = p2; }
            int v3 = max3 ? -1 : 99;
            int u12 = S->units[c1] + S->units[c2];
            u64 play3 = (follow && (a3 & sm)) ? a3 & sm : a3;
            Move m3[16];
            x.kind = 2;
            x.mover = p3;
            x.best = best;
            x.wp = wp;
            int n3c = reps(S, play3, a1 | a2, &x, m3);
            for (int i = 0; i < n3c; i++) {
                int c = m3[i].card, u = S->units[c];
                int w = (S->suit_of[c] == s && c < best) ? p3 : wp;
                m3[i].score = ((w == 0) == max3) ? 1000 + 4 * u + S->rank[c] : -4 * u + S->rank[c];
            }
            order(m3, n3c);
            for (int i3 = 0; i3 < n3c; i3++) {
                int c3 = m3[i3].card;
                int w = (S->suit_of[c3] == s && c3 < best) ? p3 : wp;
                int u = u12 + S->units[c3];
                n[p1] = r1;
                n[p2] = r2;
                n[p3] = a3 ^ ((u64)1 << c3);
                int r;
                if (left == 2) { /* the last trick is forced: play it here */
                    int l1 = CTZ(n[w]), l2 = CTZ(n[(w + 1) % 3]), l3 = CTZ(n[(w + 2) % 3]);
                    r = winner(S, l1, l2, l3, w) == 0 ? rest - u + S->bonus : 0;
                    if (w == 0) r += u;
                } else if (w == 0) {
                    if (t <= u) {
                        r = u;
                    } else {
                        r = probe(S, n[0], n[1], n[2], 0, rest - u, t - u);
                        if (r == ABORT) return ABORT;
                        r += u;
                    }
                } else {
                    r = probe(S, n[0], n[1], n[2], w, rest - u, t);
                    if (r == ABORT) return ABORT;
                }
                if (max3) {
                    if (r > v3) { v3 = r; if (r >= t) break; }
                } else if (r < v3) { v3 = r; if (r < t) break; }
            }
            if (max2) {
                if (v3 > v2) { v2 = v3; if (v3 >= t) break; }
            } else if (v3 < v2) { v2 = v3; if (v3 < t) break; }
        }
        if (max1 ? (v2 > v1) : (v2 < v1)) {
            v1 = v2;
            if (max1 ? (v2 >= t) : (v2 < t)) {
                best1 = c1;
                S->history[role][c1] += (long long)1 << left;
                if (killers[0] != c1) {
                    killers[1] = killers[0];
                    killers[0] = c1;
                }
                break;
            }
        }
    }
    if (left <= SMALL_LEFT)
        small_store(S, &sk, left, lo, hi, v1, t, best1);
    else
        store(S, &k, left, lo, hi, v1, t, best1);
    return v1;
}

/* --- setting up, probing, releasing ----------------------------------------------- */

const char *search_setup(Search *S, int bonus, int follow, const u64 suits[4], const long units[40],
                         const long classes[40], int bits) {
    if (bits < 4 || bits > 26) return "bits: expected 4..26";
    S->bonus = bonus;
    S->follow = follow;
    for (int c = 0; c < 64; c++) {
        S->suit_of[c] = -1;
        S->units[c] = 0;
        S->uclass[c] = 0;
        S->rank[c] = 0;
    }
    u64 seen = 0;
    for (int s = 0; s < 4; s++) {
        u64 m = suits[s];
        if (m >> 40 || (m & seen) || POPCOUNT(m) > 10) return "suit masks: 40 cards, at most 10 a suit, disjoint";
        seen |= m;
        S->suit[s] = m;
        S->shift[s] = m ? CTZ(m) : 0;
        if (m && (m >> S->shift[s]) & ((m >> S->shift[s]) + 1)) return "suit masks: each a run of consecutive cards";
        int r = 0;
        while (m) {
            int c = CTZ(m);
            m &= m - 1;
            S->suit_of[c] = s;
            S->rank[c] = r++;
        }
    }
    if (seen != ((u64)1 << 40) - 1) return "suit masks: every card of 0..39 in one suit";
    for (int c = 0; c < 40; c++) {
        long u = units[c], k = classes[c];
        if (u < 0 || u > 30 || k < 0 || k > 3) return "units 0..30 and unit classes 0..3";
        S->units[c] = (int)u;
        S->uclass[c] = (int)k;
    }
    memset(S->class_mask, 0, sizeof S->class_mask);
    for (int c = 0; c < 40; c++) {
        int k = S->uclass[c];
        if (S->class_mask[k] && S->class_units[k] != S->units[c])
            return "unit classes: the cards of a class have the same units";
        S->class_mask[k] |= (u64)1 << c;
        S->class_units[k] = S->units[c];
    }
    S->nclass = 0;
    for (int k = 0; k < 4; k++) {
        if (!S->class_mask[k]) continue;
        int j = S->nclass++; /* insert k among the classes by units */
        while (j > 0 && S->class_units[S->class_order[j - 1]] > S->class_units[k]) {
            S->class_order[j] = S->class_order[j - 1];
            j--;
        }
        S->class_order[j] = k;
    }
    memset(S->by_units, 0, sizeof S->by_units);
    for (int i = 0; i < S->nclass; i++) {
        int fewest = S->class_order[i], most = S->class_order[S->nclass - 1 - i];
        S->by_units[0][i] = S->class_mask[fewest];
        S->by_units[1][i] = S->class_mask[most];
        S->units_by[0][i] = S->class_units[fewest];
        S->units_by[1][i] = S->class_units[most];
    }
    free_table(&S->deep);
    free_table(&S->small);
    free(S->memo); /* its figures depend on the units and the rules of following */
    S->memo = NULL;
    S->small.max_bits = bits;
    S->deep.max_bits = bits > 6 ? bits - 2 : 4; /* few positions are deep */
    S->nodes = 0;
    S->limit = -1;
    S->deadline = 0.0;
    memset(S->killer, 0xff, sizeof S->killer);
    memset(S->history, 0, sizeof S->history);
    return NULL;
}

int search_probe(Search *S, u64 h0, u64 h1, u64 h2, int lead, int rest, int t) {
    if (t < -1000) t = -1000;
    if (t > 1000) t = 1000;
    if (!S->memo) {
        S->memo = malloc(sizeof(SuitMemo) << MEMO_BITS);
        if (!S->memo) return SEARCH_NO_MEMORY;
        memset(S->memo, 0xff, sizeof(SuitMemo) << MEMO_BITS); /* every tag ~0: empty */
    }
    Table *tables[2] = {&S->deep, &S->small};
    for (int i = 0; i < 2; i++) {
        Table *T = tables[i];
        if (!T->entries && !new_table(T, T->max_bits < FIRST_BITS ? T->max_bits : FIRST_BITS, i ? sizeof(Small) : sizeof(Entry)))
            return SEARCH_NO_MEMORY;
    }
    return probe(S, h0, h1, h2, lead, rest, t);
}

void search_release(Search *S) {
    free_table(&S->deep);
    free_table(&S->small);
    free(S->memo);
    S->memo = NULL;
    memset(S->killer, 0xff, sizeof S->killer);
    memset(S->history, 0, sizeof S->history);
}
