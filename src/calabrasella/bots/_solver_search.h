/* Private: the solver's compiled search (_solver_search.c), as its Python binding
 * (_solver_native.c) and any other caller see it. Plain C99, no Python.
 *
 * A Search is set up once from the engine's tables (search_setup), then
 * answers probes (search_probe) until search_free. Its tables are allocated
 * on the first probe, grow as it fills them and are freed by search_release
 * (the search stays usable) or search_free.
 */
#ifndef CALABRASELLA_SOLVER_SEARCH_H
#define CALABRASELLA_SOLVER_SEARCH_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;

/* What search_probe returns when the node limit or the deadline stopped it. */
#define SEARCH_ABORT (-100000)
/* ... and when there was no memory for its tables. */
#define SEARCH_NO_MEMORY (-100001)

/* A table of either kind: its entries (64-byte aligned, in block), 2**bits of
 * them, how many are filled and the most it grows to. */
typedef struct {
    void *entries;
    void *block;
    int bits;
    int max_bits;
    u64 used;
} Table;

typedef struct SuitMemo SuitMemo; /* private to _solver_search.c */

typedef struct Search {
    int bonus;
    int follow;
    u64 suit[4];
    int suit_of[64];
    int units[64];
    int uclass[64];
    int rank[64]; /* 0 the strongest card of its suit */
    u64 class_mask[4];  /* the cards of each unit class */
    int class_units[4]; /* the units of a card of the class */
    int class_order[4]; /* the classes by their units, the fewest first */
    int nclass;         /* how many classes have cards */
    u64 by_units[2][4]; /* the classes' cards, the fewest units first ([0]) or the most ([1]) */
    int units_by[2][4]; /* the units of a card of each */
    int shift[4];      /* the suit's lowest card: a suit is a run of cards */
    Table deep;        /* Entry: positions with more than SMALL_LEFT tricks left */
    Table small;       /* Small: the others */
    SuitMemo *memo;
    long long nodes;
    long long limit; /* -1: none */
    double deadline; /* 0.0: none */
    /* The clock the deadline is on, read every 1,024 nodes when there is a
     * deadline; it returns NaN when it fails (the probe then stops). */
    double (*clock)(void *data);
    void *clock_data;
    int killer[3][16][2];
    long long history[3][64];
} Search;

/* Set S up (a zeroed Search, or one set up before: its tables are freed) for
 * the last-trick bonus, whether suit must be followed, the four suits as card
 * masks, each card's units (0..30) and unit class (0..3), and at most 2**bits
 * entries in its table (4..26). Returns NULL, or what is wrong with the
 * tables (S is then unusable until set up again). */
const char *search_setup(Search *S, int bonus, int follow, const u64 suits[4], const long units[40],
                         const long classes[40], int bits);

/* A fail-soft bound of the declarer's units from the trick boundary where
 * hands h0 (the declarer), h1 and h2 hold their cards and `lead` leads,
 * around the threshold t, `rest` units being left in the hands; or
 * SEARCH_ABORT (the node limit or the deadline) or SEARCH_NO_MEMORY.
 * Hands are 40-bit masks, lead 0..2, rest 0..1000 (the caller checks). */
int search_probe(Search *S, u64 h0, u64 h1, u64 h2, int lead, int rest, int t);

/* Free the tables and forget the move-ordering history (S stays set up). */
void search_release(Search *S);

#endif
