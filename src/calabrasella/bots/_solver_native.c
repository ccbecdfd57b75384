/* Private: the solver's search at trick boundaries, compiled (see _solver_native.py).
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
 * module is used): cards are bits 0..39; a card beats another if and only
 * if both are of one suit and its bit is the lower one; a card of another
 * suit than the one led never wins the trick (no trumps); a trick's winner
 * leads the next; when suit must be followed a hand holding the suit led
 * plays one of those cards, else any card.
 *
 * The search: alpha-beta over whole tricks, null window, fail-soft; a
 * fixed-size transposition table (4-way buckets) keyed on the relative
 * position (each suit as the holders and unit classes of its cards left,
 * strongest first; the four suits sorted, being interchangeable when there
 * are no trumps) keeping a lower and an upper bound and the lead that
 * decided; equivalent cards (one hand, one suit, no other live card between
 * them, the same unit class) searched once; leads ordered by the stored lead,
 * two killer leads per (role, tricks left), then sure winners and low cards.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

#define ABORT (-100000)

#if defined(__GNUC__) || defined(__clang__)
#define POPCOUNT(x) __builtin_popcountll(x)
#define CTZ(x) __builtin_ctzll(x)
#else
static int POPCOUNT(u64 x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }
static int CTZ(u64 x) { int n = 0; while (!(x & 1)) { x >>= 1; n++; } return n; }
#endif

typedef struct {
    u64 k[4];
    int8_t lo, hi, best, depth;
} Entry;

typedef struct {
    PyObject_HEAD
    int bonus;
    int follow;
    u64 suit[4];
    int suit_of[64];
    int units[64];
    int uclass[64];
    int rank[64]; /* 0 the strongest card of its suit */
    Entry *table;
    u64 buckets; /* number of 4-entry buckets, a power of two */
    long long nodes;
    long long limit; /* -1: none */
    double deadline; /* 0.0: none */
    PyObject *clock;
    PyObject *exc;
    int killer[3][16][2];
} Core;

/* --- moves ---------------------------------------------------------------- */

typedef struct {
    int card;
    int score;
} Move;

/* The cards of `playable` worth searching: one of each class of equivalent
 * cards (one suit, no card of `out` between them, one unit class). */
static int reps(const Core *S, u64 playable, u64 out, Move *moves) {
    int n = 0;
    for (int s = 0; s < 4; s++) {
        u64 m = playable & S->suit[s];
        if (!m) continue;
        u64 both = (m | out) & S->suit[s];
        unsigned seen = 0;
        while (both) {
            int c = CTZ(both);
            both &= both - 1;
            if (!(m >> c & 1)) {
                seen = 0; /* a live card of another hand or the trick: a new block */
            } else {
                unsigned bit = 1u << S->uclass[c];
                if (!(seen & bit)) {
                    seen |= bit;
                    moves[n].card = c;
                    moves[n].score = 0;
                    n++;
                }
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

/* The strongest card of a mask of one suit (64 if empty). */
static inline int top(u64 m) { return m ? CTZ(m) : 64; }

/* --- the transposition table ------------------------------------------------ */

static void key_of(const Core *S, u64 h0, u64 h1, u64 h2, int lead, u64 *k) {
    u64 all = h0 | h1 | h2;
    for (int s = 0; s < 4; s++) {
        u64 m = all & S->suit[s];
        u64 code = 1;
        while (m) {
            int c = CTZ(m);
            m &= m - 1;
            u64 who = (h0 >> c & 1) ? 0 : (h1 >> c & 1) ? 1 : 2;
            code = code << 4 | who << 2 | (u64)S->uclass[c];
        }
        k[s] = code;
    }
    u64 x;
#define SWAP(a, b) if (k[a] > k[b]) { x = k[a]; k[a] = k[b]; k[b] = x; }
    SWAP(0, 1) SWAP(2, 3) SWAP(0, 2) SWAP(1, 3) SWAP(1, 2)
#undef SWAP
    k[3] |= (u64)lead << 60;
}

static inline u64 hash_of(const u64 *k) {
    u64 h = k[0] * 0x9E3779B97F4A7C15ULL ^ k[1] * 0xC2B2AE3D27D4EB4FULL
            ^ k[2] * 0x165667B19E3779F9ULL ^ k[3] * 0x27D4EB2F165667C5ULL;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBULL;
    h ^= h >> 29;
    return h;
}

static Entry *find(Core *S, const u64 *k) {
    Entry *b = S->table + 4 * (hash_of(k) & (S->buckets - 1));
    for (int i = 0; i < 4; i++) {
        Entry *e = b + i;
        if (e->k[0] == k[0] && e->k[1] == k[1] && e->k[2] == k[2] && e->k[3] == k[3])
            return e;
    }
    return NULL;
}

static void store(Core *S, const u64 *k, int depth, int total, int v, int t, int best) {
    Entry *b = S->table + 4 * (hash_of(k) & (S->buckets - 1));
    Entry *e = NULL;
    for (int i = 0; i < 4; i++) {
        if (b[i].k[0] == k[0] && b[i].k[1] == k[1] && b[i].k[2] == k[2] && b[i].k[3] == k[3]) {
            e = b + i;
            break;
        }
    }
    if (!e) { /* an empty slot, else the one with the fewest tricks left */
        e = b;
        for (int i = 1; i < 4; i++)
            if (b[i].depth < e->depth) e = b + i;
        memcpy(e->k, k, sizeof e->k);
        e->lo = 0;
        e->hi = (int8_t)total;
        e->best = -1;
        e->depth = (int8_t)depth;
    }
    if (v >= t) {
        if (v > e->lo) e->lo = (int8_t)v;
    } else if (v < e->hi) {
        e->hi = (int8_t)v;
    }
    if (best >= 0) e->best = (int8_t)best;
}

/* --- the search --------------------------------------------------------------- */

static int check_limits(Core *S) {
    S->nodes++;
    if (S->nodes == S->limit) return 1;
    if (!(S->nodes & 1023) && S->deadline > 0.0) {
        PyObject *now = PyObject_CallNoArgs(S->clock);
        if (!now) return 1;
        double d = PyFloat_AsDouble(now);
        Py_DECREF(now);
        if (d == -1.0 && PyErr_Occurred()) return 1;
        if (d > S->deadline) return 1;
    }
    return 0;
}

static int probe(Core *S, u64 h0, u64 h1, u64 h2, int lead, int rest, int t);

/* The declarer's units from after a whole trick (cards c1 c2 c3 led by p1). */
static inline int after_trick(Core *S, const u64 *n, int w, int u, int rest, int t) {
    if (w == 0) {
        if (t <= u) return u;
        int r = probe(S, n[0], n[1], n[2], 0, rest - u, t - u);
        return r == ABORT ? ABORT : r + u;
    }
    return probe(S, n[0], n[1], n[2], w, rest - u, t);
}

static int probe(Core *S, u64 h0, u64 h1, u64 h2, int lead, int rest, int t) {
    if (t <= 0) return 0;
    int total = rest + S->bonus;
    if (t > total) return total;
    u64 h[3] = {h0, h1, h2};
    int p1 = lead, p2 = (lead + 1) % 3, p3 = (lead + 2) % 3;
    u64 a1 = h[p1], a2 = h[p2], a3 = h[p3];
    int left = POPCOUNT(a1);
    if (left <= 1) { /* the last trick: every card is forced */
        if (!left) return 0;
        int c1 = CTZ(a1), c2 = CTZ(a2), c3 = CTZ(a3);
        int s = S->suit_of[c1], best = c1, w = p1;
        if (S->suit_of[c2] == s && c2 < best) { best = c2; w = p2; }
        if (S->suit_of[c3] == s && c3 < best) { w = p3; }
        return w == 0 ? total : 0;
    }
    u64 k[4];
    key_of(S, h0, h1, h2, lead, k);
    int hint = -1;
    Entry *e = find(S, k);
    if (e) {
        if (e->lo >= t) return e->lo;
        if (e->hi < t) return e->hi;
        hint = e->best;
    }
    if (check_limits(S)) return ABORT;

    int max1 = p1 == 0, max2 = p2 == 0, max3 = p3 == 0;
    int role = max1 ? 0 : (p2 ? 1 : 2);
    int *killers = S->killer[role][left & 15];
    int follow = S->follow;

    Move m1[16];
    int n1c = reps(S, a1, a2 | a3, m1);
    {
        u64 partner = max1 ? 0 : (max2 ? a3 : a2); /* an adversary's partner; 0 for the declarer */
        u64 opp = max1 ? (a2 | a3) : h[0];
        for (int i = 0; i < n1c; i++) {
            int c = m1[i].card, s = S->suit_of[c];
            u64 sm = S->suit[s];
            int u = S->units[c];
            int sc;
            if (c == hint) sc = 10000;
            else if (c == killers[0]) sc = 5000;
            else if (c == killers[1]) sc = 4000;
            else if (c < top((a2 | a3) & sm)) sc = 1000 + 4 * u;   /* wins the trick */
            else if (c < top(opp & sm)) sc = 800 + 4 * u;           /* his side wins it */
            else if (partner && top(partner & sm) < top(opp & sm)) sc = 500 - 4 * u;
            else sc = -4 * u - S->rank[c];
            m1[i].score = sc;
        }
        order(m1, n1c);
    }

    int v1 = max1 ? -1 : 99, best1 = -1;
    u64 n[3];
    for (int i1 = 0; i1 < n1c; i1++) {
        int c1 = m1[i1].card;
        int s = S->suit_of[c1];
        u64 sm = S->suit[s];
        u64 b1 = (u64)1 << c1;
        u64 r1 = a1 ^ b1;
        int v2 = max2 ? -1 : 99;
        u64 play2 = (follow && (a2 & sm)) ? a2 & sm : a2;
        Move m2[16];
        int n2c = reps(S, play2, a1 | a3, m2);
        {
            int t3 = top(a3 & sm);
            for (int i = 0; i < n2c; i++) {
                int c = m2[i].card, u = S->units[c];
                int wins = S->suit_of[c] == s && c < c1;
                int best = wins ? c : c1;
                int wp = wins ? p2 : p1;
                int sc;
                if (t3 > best) { /* the last hand cannot beat it: the trick is settled */
                    sc = ((wp == 0) == max2) ? 1000 + 4 * u - S->rank[c] : -4 * u - S->rank[c];
                } else {
                    sc = -4 * u - S->rank[c];
                }
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
            int n3c = reps(S, play3, a1 | a2, m3);
            for (int i = 0; i < n3c; i++) {
                int c = m3[i].card, u = S->units[c];
                int w = (S->suit_of[c] == s && c < best) ? p3 : wp;
                m3[i].score = ((w == 0) == max3) ? 1000 + 4 * u + S->rank[c] : -4 * u - S->rank[c];
            }
            order(m3, n3c);
            for (int i3 = 0; i3 < n3c; i3++) {
                int c3 = m3[i3].card;
                int w = (S->suit_of[c3] == s && c3 < best) ? p3 : wp;
                int u = u12 + S->units[c3];
                n[p1] = r1;
                n[p2] = r2;
                n[p3] = a3 ^ ((u64)1 << c3);
                int r = after_trick(S, n, w, u, rest, t);
                if (r == ABORT) return ABORT;
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
                if (killers[0] != c1) {
                    killers[1] = killers[0];
                    killers[0] = c1;
                }
                break;
            }
        }
    }
    store(S, k, left, total, v1, t, best1);
    return v1;
}

/* --- the Python type --------------------------------------------------------------- */

static int Core_init(Core *self, PyObject *args, PyObject *kwds) {
    int bonus, follow, bits;
    PyObject *suits, *units, *classes, *clock, *exc;
    static char *kwlist[] = {"bonus", "follow", "suits", "units", "classes", "clock", "exc", "bits", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ipOOOOOi", kwlist, &bonus, &follow, &suits, &units,
                                     &classes, &clock, &exc, &bits))
        return -1;
    if (bits < 4 || bits > 26) {
        PyErr_SetString(PyExc_ValueError, "bits: expected 4..26");
        return -1;
    }
    if (!PyTuple_Check(suits) || PyTuple_GET_SIZE(suits) != 4 || !PyTuple_Check(units)
        || PyTuple_GET_SIZE(units) != 40 || !PyTuple_Check(classes) || PyTuple_GET_SIZE(classes) != 40) {
        PyErr_SetString(PyExc_ValueError, "expected 4 suit masks, 40 units and 40 unit classes");
        return -1;
    }
    self->bonus = bonus;
    self->follow = follow;
    for (int c = 0; c < 64; c++) {
        self->suit_of[c] = -1;
        self->units[c] = 0;
        self->uclass[c] = 0;
        self->rank[c] = 0;
    }
    u64 seen = 0;
    for (int s = 0; s < 4; s++) {
        u64 m = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(suits, s));
        if (PyErr_Occurred()) return -1;
        if (m >> 40 || (m & seen) || POPCOUNT(m) > 15) {
            PyErr_SetString(PyExc_ValueError, "suit masks: 40 cards, at most 15 a suit, disjoint");
            return -1;
        }
        seen |= m;
        self->suit[s] = m;
        int r = 0;
        while (m) {
            int c = CTZ(m);
            m &= m - 1;
            self->suit_of[c] = s;
            self->rank[c] = r++;
        }
    }
    if (seen != ((u64)1 << 40) - 1) {
        PyErr_SetString(PyExc_ValueError, "suit masks: every card of 0..39 in one suit");
        return -1;
    }
    for (int c = 0; c < 40; c++) {
        long u = PyLong_AsLong(PyTuple_GET_ITEM(units, c));
        long k = PyLong_AsLong(PyTuple_GET_ITEM(classes, c));
        if (PyErr_Occurred()) return -1;
        if (u < 0 || u > 30 || k < 0 || k > 3) {
            PyErr_SetString(PyExc_ValueError, "units 0..30 and unit classes 0..3");
            return -1;
        }
        self->units[c] = (int)u;
        self->uclass[c] = (int)k;
    }
    Py_XSETREF(self->clock, Py_NewRef(clock));
    Py_XSETREF(self->exc, Py_NewRef(exc));
    free(self->table);
    self->table = NULL;
    self->buckets = (u64)1 << (bits - 2);
    self->nodes = 0;
    self->limit = -1;
    self->deadline = 0.0;
    memset(self->killer, 0xff, sizeof self->killer);
    return 0;
}

static void Core_dealloc(Core *self) {
    free(self->table);
    Py_XDECREF(self->clock);
    Py_XDECREF(self->exc);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Core_probe(Core *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "probe(h0, h1, h2, lead, rest, t)");
        return NULL;
    }
    u64 h[3];
    for (int i = 0; i < 3; i++) {
        h[i] = PyLong_AsUnsignedLongLong(args[i]);
        if (PyErr_Occurred()) return NULL;
        if (h[i] >> 40) {
            PyErr_SetString(PyExc_ValueError, "a hand is a 40-bit card mask");
            return NULL;
        }
    }
    long lead = PyLong_AsLong(args[3]);
    long rest = PyLong_AsLong(args[4]);
    long t = PyLong_AsLong(args[5]);
    if (PyErr_Occurred()) return NULL;
    if (lead < 0 || lead > 2 || rest < 0 || rest > 1000) {
        PyErr_SetString(PyExc_ValueError, "lead 0..2 and rest 0..1000");
        return NULL;
    }
    if (t < -1000) t = -1000;
    if (t > 1000) t = 1000;
    if (!self->table) {
        self->table = calloc((size_t)(4 * self->buckets), sizeof(Entry));
        if (!self->table) return PyErr_NoMemory();
    }
    int v = probe(self, h[0], h[1], h[2], (int)lead, (int)rest, (int)t);
    if (v == ABORT) {
        if (!PyErr_Occurred()) {
            PyObject *count = PyLong_FromLongLong(self->nodes);
            if (count) {
                PyErr_SetObject(self->exc, count);
                Py_DECREF(count);
            }
        }
        return NULL;
    }
    return PyLong_FromLong(v);
}

static PyObject *Core_release(Core *self, PyObject *Py_UNUSED(ignored)) {
    free(self->table);
    self->table = NULL;
    memset(self->killer, 0xff, sizeof self->killer);
    Py_RETURN_NONE;
}

static PyObject *Core_get_nodes(Core *self, void *closure) { return PyLong_FromLongLong(self->nodes); }

static PyObject *Core_get_limit(Core *self, void *closure) { return PyLong_FromLongLong(self->limit); }

static int Core_set_limit(Core *self, PyObject *value, void *closure) {
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete limit");
        return -1;
    }
    long long v = PyLong_AsLongLong(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    self->limit = v;
    return 0;
}

static PyObject *Core_get_deadline(Core *self, void *closure) { return PyFloat_FromDouble(self->deadline); }

static int Core_set_deadline(Core *self, PyObject *value, void *closure) {
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete deadline");
        return -1;
    }
    double d = PyFloat_AsDouble(value);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    self->deadline = d;
    return 0;
}

static PyMethodDef Core_methods[] = {
    {"probe", (PyCFunction)(void (*)(void))Core_probe, METH_FASTCALL,
     "probe(h0, h1, h2, lead, rest, t): a fail-soft bound around t of the declarer's units."},
    {"release", (PyCFunction)Core_release, METH_NOARGS, "Free the transposition table."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Core_getset[] = {
    {"nodes", (getter)Core_get_nodes, NULL, "Positions searched.", NULL},
    {"limit", (getter)Core_get_limit, (setter)Core_set_limit, "Node limit (-1: none).", NULL},
    {"deadline", (getter)Core_get_deadline, (setter)Core_set_deadline, "Clock deadline (0.0: none).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "calabrasella.bots._solver_native.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The compiled search of one solve.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_solver_native", "The solver's compiled search.", -1, NULL,
};

PyMODINIT_FUNC PyInit__solver_native(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
