/*
 * Optional C accelerator for the shanten hot path.
 *
 * It holds no tables of its own: tenpai.hand.tables builds them with numpy and hands them over
 * through configure(), so the C and pure-Python paths read the very same numbers and can only
 * disagree through a bug the differential tests would catch.  Everything that is not the plain
 * fast case (a bad vector, an unconfigured module, an input that is not a list, tuple, bytes or
 * bytearray of 34 small ints) returns a sentinel and the Python caller takes its own path, which raises the
 * project's typed errors.  If this file cannot be compiled, the package works without it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>


#include "_shanten_core.h"
#include "_useful_core.h"
#include "_mcr_shanten_core.h"

static int ready = 0;

/* Python callables: configure() builds and hands over the tables; the fallbacks answer (or
 * raise the typed error for) anything the fast path does not handle. */
static PyObject *cb_configure = NULL, *cb_shanten = NULL, *cb_standard = NULL,
                *cb_complete = NULL;


/* configure(...) -- the tables tenpai.hand.accel.table_buffers() lists, taken by
 * shanten_tables_take() (_shanten_core.h); the two vector tables stay held as well, for the
 * MCR knitted-straight shanten and the per-class vectors of _useful_core.h.  The two pattern
 * tables are one byte per entry (255 = no such pattern) so the 2 MB suit table stays as
 * cache-friendly as it can be: random hands make these look-ups the main cost. */
static PyObject *configure(PyObject *self, PyObject *args) {
    if (ready) {
        shanten_tables_release(&mpv_buf, &shv_buf);
        ready = 0;
    }
    if (shanten_tables_take(args, "_accel.configure", &mpv_buf, &shv_buf) < 0) return NULL;
    if (useful_configure(&mpv_buf, &shv_buf) < 0) {
        shanten_tables_release(&mpv_buf, &shv_buf);
        return NULL;
    }
    ready = 1;
    Py_RETURN_NONE;
}

/* The interpreter's cached small ints 0-4 (filled at import): a count that is one of these
 * objects is read by one pointer comparison instead of a PyLong_AsLong call. */
static PyObject *SMALL[5];

static inline int small_count(PyObject *o) {
    for (int v = 0; v < 5; v++)
        if (o == SMALL[v]) return v;
    if (!PyLong_CheckExact(o)) return -1;
    long v = PyLong_AsLong(o);
    if (v < 0 || v > 4) {
        PyErr_Clear();
        return -1;
    }
    return (int)v;
}

/* The items of an exact list or tuple of 34 entries, or NULL for anything else (read in place,
 * without the sequence protocol's calls). */
static PyObject **items34(PyObject *obj) {
    if (PyList_CheckExact(obj))
        return PyList_GET_SIZE(obj) == 34 ? ((PyListObject *)obj)->ob_item : NULL;
    if (PyTuple_CheckExact(obj))
        return PyTuple_GET_SIZE(obj) == 34 ? ((PyTupleObject *)obj)->ob_item : NULL;
    return NULL;
}

/* Read 34 counts (0-4) from a list, a tuple, bytes or a bytearray; returns 0 on success, -1 to
 * fall back.  Bytes matter: the encoders hold hands as 34-byte vectors, and before bytes were
 * accepted here every encoder call silently took the Python path. */
static int read_counts(PyObject *obj, int *c) {
    if (PyBytes_CheckExact(obj) || PyByteArray_CheckExact(obj)) {
        Py_ssize_t n;
        const unsigned char *raw;
        if (PyBytes_CheckExact(obj)) {
            n = PyBytes_GET_SIZE(obj);
            raw = (const unsigned char *)PyBytes_AS_STRING(obj);
        } else {
            n = PyByteArray_GET_SIZE(obj);
            raw = (const unsigned char *)PyByteArray_AS_STRING(obj);
        }
        if (n != 34) return -1;
        for (int i = 0; i < 34; i++) {
            if (raw[i] > 4) return -1;
            c[i] = raw[i];
        }
        return 0;
    }
    PyObject **items = items34(obj);
    if (items == NULL) return -1;
    for (int i = 0; i < 34; i++) {
        int v = small_count(items[i]);
        if (v < 0) return -1;
        c[i] = v;
    }
    return 0;
}

/* Read 34 weights (any C long) from a list, a tuple or bytes; 0 on success, -1 to fall back. */
static int read_weights(PyObject *obj, long *w) {
    if (PyBytes_CheckExact(obj)) {
        if (PyBytes_GET_SIZE(obj) != 34) return -1;
        const unsigned char *raw = (const unsigned char *)PyBytes_AS_STRING(obj);
        for (int i = 0; i < 34; i++) w[i] = raw[i];
        return 0;
    }
    PyObject **items = items34(obj);
    if (items == NULL) return -1;
    for (int i = 0; i < 34; i++) {
        PyObject *o = items[i];
        if (!PyLong_CheckExact(o)) return -1;
        /* Bounded so that 34 of them can never overflow the running sum. */
        long v = PyLong_AsLong(o);
        if (v < -1000000L || v > 1000000L) {
            PyErr_Clear();
            return -1;
        }
        w[i] = v;
    }
    return 0;
}


/* install(configure, shanten_fallback, standard_fallback, complete_fallback) */
static PyObject *install(PyObject *self, PyObject *args) {
    PyObject *a, *b, *c, *d;
    if (!PyArg_ParseTuple(args, "OOOO", &a, &b, &c, &d)) return NULL;
    Py_XINCREF(a);
    Py_XINCREF(b);
    Py_XINCREF(c);
    Py_XINCREF(d);
    Py_XDECREF(cb_configure);
    Py_XDECREF(cb_shanten);
    Py_XDECREF(cb_standard);
    Py_XDECREF(cb_complete);
    cb_configure = a;
    cb_shanten = b;
    cb_standard = c;
    cb_complete = d;
    Py_RETURN_NONE;
}

/* Make sure the tables are in; returns 0 on success, -1 with an exception set. */
static int ensure_ready(void) {
    if (ready) return 0;
    if (cb_configure == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "tenpai.hand._accel used before install()");
        return -1;
    }
    PyObject *r = PyObject_CallNoArgs(cb_configure);
    if (r == NULL) return -1;
    Py_DECREF(r);
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "tenpai.hand._accel: configure() did not configure");
        return -1;
    }
    return 0;
}

/* shanten(counts) -> Riichi shanten (-1..8): standard, seven pairs, thirteen orphans. */
static PyObject *shanten(PyObject *self, PyObject *obj) {
    int c[34], tiles;
    if (ensure_ready() < 0) return NULL;
    if (read_counts(obj, c) == 0) {
        int s = standard_code(c, &tiles);
        if (s != FALLBACK) {
            if (tiles >= 13) {
                int t = chiitoi(c);
                if (t < s) s = t;
                t = kokushi(c);
                if (t < s) s = t;
            }
            return PyLong_FromLong(s);
        }
    }
    return PyObject_CallOneArg(cb_shanten, obj);
}

/* standard(counts) -> standard-form shanten. */
static PyObject *standard(PyObject *self, PyObject *obj) {
    int c[34], tiles;
    if (ensure_ready() < 0) return NULL;
    if (read_counts(obj, c) == 0) {
        int s = standard_code(c, &tiles);
        if (s != FALLBACK) return PyLong_FromLong(s);
    }
    return PyObject_CallOneArg(cb_standard, obj);
}

/* complete(counts) -> True for a complete Riichi hand (any of the three forms). */
static PyObject *complete(PyObject *self, PyObject *obj) {
    int c[34], tiles;
    if (ensure_ready() < 0) return NULL;
    if (read_counts(obj, c) == 0) {
        int s = standard_code(c, &tiles);
        if (s != FALLBACK) {
            if (s == -1) Py_RETURN_TRUE;
            if (tiles == 14 && (chiitoi(c) == -1 || kokushi(c) == -1)) Py_RETURN_TRUE;
            Py_RETURN_FALSE;
        }
    }
    return PyObject_CallOneArg(cb_complete, obj);
}

/* A 3k+2-tile hand read from ``obj`` into c, h and u, ready for the per-discard questions of
 * _useful_core.h: 1, or 0 when the fast path does not handle it (the caller answers None), or
 * -1 with an exception set. */
static int discard_hand(PyObject *obj, int c[34], Hand *h, UsefulBase *u) {
    if (ensure_ready() < 0) return -1;
    if (read_counts(obj, c) < 0) return 0;
    hand_init(h, c);
    if (h->tiles % 3 != 2 || hand_riichi(h) == FALLBACK) return 0;
    return useful_begin(h, u, NULL) == FALLBACK ? 0 : 1;
}

static PyObject *long_item(const void *values, int k) {
    return PyLong_FromLong(((const long *)values)[k]);
}

static PyObject *mask_item(const void *values, int k) {
    return PyLong_FromUnsignedLongLong(((const unsigned long long *)values)[k]);
}

/* (after, second) as two lists of 34 ints, the answer of the per-discard functions: after[k]
 * the shanten once one k is discarded, second[k] what the caller counted for that discard
 * (``item`` makes one entry of it). */
static PyObject *per_discard_lists(const int after[34],
                                   PyObject *(*item)(const void *, int), const void *second) {
    PyObject *a = PyList_New(34), *t = PyList_New(34);
    if (a == NULL || t == NULL) goto fail;
    for (int k = 0; k < 34; k++) {
        PyObject *x = PyLong_FromLong(after[k]), *y = item(second, k);
        if (x == NULL || y == NULL) {
            Py_XDECREF(x);
            Py_XDECREF(y);
            goto fail;
        }
        PyList_SET_ITEM(a, k, x);
        PyList_SET_ITEM(t, k, y);
    }
    return Py_BuildValue("(NN)", a, t);
fail:
    Py_XDECREF(a);
    Py_XDECREF(t);
    return NULL;
}

/* discard_draws(counts, weights) -> (after, totals) for a 3k+2-tile hand, or None for anything
 * the fast path does not handle.  after[k] is the shanten once one k is discarded (99 for a
 * kind not held); totals[k] sums weights[j] over the kinds j whose draw then lowers that
 * shanten (a kind already held four times cannot be drawn).  One call replaces the 14 + 14 x 34
 * shanten evaluations of an efficiency encoder's discard rows; the kinds come from
 * _useful_core.h, as in the compiled rollouts. */
static PyObject *discard_draws(PyObject *self, PyObject *args) {
    PyObject *hand_obj, *weights_obj;
    int c[34], after[34];
    long weights[34], totals[34];
    Hand h;
    UsefulBase u;
    if (!PyArg_ParseTuple(args, "OO", &hand_obj, &weights_obj)) return NULL;
    int got = discard_hand(hand_obj, c, &h, &u);
    if (got < 0) return NULL;
    if (!got || read_weights(weights_obj, weights) < 0) Py_RETURN_NONE;
    for (int k = 0; k < 34; k++) {
        after[k] = 99;
        totals[k] = 0;
        if (!c[k]) continue;
        unsigned long long mask;
        if (useful_after(&h, &u, k, &mask, &after[k]) == FALLBACK) Py_RETURN_NONE;
        long total = 0;
        for (int j = 0; j < 34; j++)
            if (mask >> j & 1) total += weights[j];
        totals[k] = total;
    }
    return per_discard_lists(after, long_item, totals);
}

/* discard_useful(counts) -> (after, masks) for a 3k+2-tile hand, or None for anything the fast
 * path does not handle: after[k] is the shanten once one k is discarded (99 for a kind not
 * held) and masks[k] the bit mask of the kinds whose draw then lowers it, from _useful_core.h
 * (what the compiled rollouts count); tests compare it with draw_shanten() row by row. */
static PyObject *discard_useful(PyObject *self, PyObject *obj) {
    int c[34], after[34];
    unsigned long long masks[34];
    Hand h;
    UsefulBase u;
    int ok = discard_hand(obj, c, &h, &u);
    if (ok < 0) return NULL;
    if (!ok) Py_RETURN_NONE;
    /* the shanten as the rollouts' options_init reads it (every discard first), the masks as
     * their counts do */
    for (int k = 0; k < 34; k++) {
        after[k] = 99;
        masks[k] = 0;
        if (c[k] && (after[k] = useful_discard_shanten(&h, &u, k)) == FALLBACK) Py_RETURN_NONE;
    }
    for (int k = 0; k < 34; k++) {
        int got;
        if (!c[k]) continue;
        if (useful_after(&h, &u, k, &masks[k], &got) == FALLBACK) Py_RETURN_NONE;
        if (got != after[k]) {
            PyErr_Format(PyExc_RuntimeError,
                         "discard_useful: the splits give shanten %d and %d after discarding %d",
                         after[k], got, k);
            return NULL;
        }
    }
    return per_discard_lists(after, mask_item, masks);
}

/* useful_check(hands) -> (discards, raised, reused, first_bad) for tests: ``hands`` is bytes of n rows
 * of 34 counts, each a 3k+2-tile hand.  For every discard, useful_discard_shanten() (what the
 * rollouts' options_init reads, all discards first, before any effective tiles are asked for)
 * and useful_after() must both give the shanten hand_riichi gives for the hand after it (the
 * tables' whole-hand look-up), and useful_after() exactly the kinds whose entry in that hand's
 * draw row (hand_draw_row: the tables' straightforward answer, one look-up per draw) is lower.
 * ``raised`` counts the discards that raise the standard form while it still gives the shanten
 * (useful_after's min-plus branch); ``reused`` the groups whose draws came from an earlier row's
 * (the UsefulDraws kept across the batch); ``first_bad`` is the first disagreeing row, or -1. */
static PyObject *useful_check(PyObject *self, PyObject *obj) {
    if (ensure_ready() < 0) return NULL;
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) % 34 != 0) {
        PyErr_SetString(PyExc_ValueError, "useful_check: expected bytes of rows of 34 counts");
        return NULL;
    }
    const unsigned char *raw = (const unsigned char *)PyBytes_AS_STRING(obj);
    Py_ssize_t n = PyBytes_GET_SIZE(obj) / 34, bad = -1;
    long discards = 0, raised = 0, reused = 0;
    /* one UsefulDraws for the whole batch, as a rollout seat keeps one: the hands that share a
     * group's pattern with an earlier one (the empty honours, most often) read it from there */
    static UsefulDraws draws;
    memset(&draws, 0, sizeof draws);
    for (Py_ssize_t i = 0; i < n && bad < 0; i++) {
        int c[34], row[34], split_sh[34];
        for (int k = 0; k < 34; k++) {
            c[k] = raw[i * 34 + k];
            if (c[k] > 4) {
                PyErr_Format(PyExc_ValueError, "useful_check: row %zd holds %d of kind %d", i,
                             c[k], k);
                return NULL;
            }
        }
        Hand h;
        UsefulBase u;
        hand_init(&h, c);
        if (h.tiles % 3 != 2 || h.tiles > 14) {
            PyErr_Format(PyExc_ValueError, "useful_check: row %zd holds %d tiles", i, h.tiles);
            return NULL;
        }
        int whole = hand_standard(&h);
        if (whole == FALLBACK || useful_begin(&h, &u, &draws) == FALLBACK) {
            bad = i;
            break;
        }
        for (int g = 0; g < 4; g++) reused += draws.tag[g] == h.key[g] + 1;
        for (int k = 0; k < 34; k++) split_sh[k] = c[k] ? useful_discard_shanten(&h, &u, k) : 99;
        for (int k = 0; k < 34 && bad < 0; k++) {
            if (!c[k]) continue;
            unsigned long long mask, want = 0;
            int got;
            if (useful_after(&h, &u, k, &mask, &got) == FALLBACK) {
                bad = i;
                break;
            }
            hand_move(&h, k, -1);
            int s = hand_riichi(&h), std = hand_standard(&h);
            int ok = s != FALLBACK && hand_draw_row(&h, row) == 0;
            hand_move(&h, k, +1);
            if (!ok) {
                bad = i;
                break;
            }
            for (int j = 0; j < 34; j++)
                if (row[j] < s) want |= 1ULL << j;
            discards++;
            raised += std > whole && std == s;
            if (split_sh[k] != s || got != s || mask != want) bad = i;
        }
    }
    return Py_BuildValue("(llln)", discards, raised, reused, bad);
}

/* draw_shanten(counts) -> list of 34 shanten numbers after drawing each kind (99 where all
 * four copies are held), or None for anything but a valid 3k+1-tile list/tuple. */
static PyObject *draw_shanten(PyObject *self, PyObject *obj) {
    int c[34];
    Hand h;
    if (ensure_ready() < 0) return NULL;
    if (read_counts(obj, c) < 0) Py_RETURN_NONE;
    hand_init(&h, c);
    if (h.tiles % 3 != 1 || hand_riichi(&h) == FALLBACK) Py_RETURN_NONE;
    int row[34];
    if (hand_draw_row(&h, row) == FALLBACK) Py_RETURN_NONE;
    PyObject *out = PyList_New(34);
    if (out == NULL) return NULL;
    for (int k = 0; k < 34; k++) {
        PyObject *v = PyLong_FromLong(row[k]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, v);
    }
    return out;
}

/* waits(counts) -> kinds completing a tenpai 3k+1-tile hand ([] if not tenpai), or None for
 * anything the fast path does not handle. */
static PyObject *waits(PyObject *self, PyObject *obj) {
    int c[34], tiles, after;
    if (ensure_ready() < 0) return NULL;
    if (read_counts(obj, c) < 0) Py_RETURN_NONE;
    int s = riichi_code(c, &tiles);
    if (s == FALLBACK || tiles % 3 != 1) Py_RETURN_NONE;
    PyObject *out = PyList_New(0);
    if (out == NULL || s != 0) return out;
    for (int k = 0; k < 34; k++) {
        if (c[k] < 4) {
            c[k]++;
            int v = riichi_code(c, &after);
            c[k]--;
            if (v == -1) {
                PyObject *n = PyLong_FromLong(k);
                if (n == NULL || PyList_Append(out, n) < 0) {
                    Py_XDECREF(n);
                    Py_DECREF(out);
                    return NULL;
                }
                Py_DECREF(n);
            }
        }
    }
    return out;
}


/* ---- Standard form with its useful draws (PyMahjongGB's RegularShanten does the same work) */


/* standard_useful(counts) -> (standard shanten, [kinds whose draw lowers it]) for a 3k+1-tile
 * hand, or None for anything the fast path does not handle.  A kind held four times cannot be
 * drawn and is never listed. */
static PyObject *standard_useful(PyObject *self, PyObject *obj) {
    int c[34];
    Hand h;
    if (ensure_ready() < 0) return NULL;
    if (read_counts(obj, c) < 0) Py_RETURN_NONE;
    hand_init(&h, c);
    int s = hand_standard(&h);
    if (h.tiles % 3 != 1 || s == FALLBACK) Py_RETURN_NONE;
    int useful[34], n = 0;
    for (int k = 0; k < 34; k++) {
        if (c[k] >= 4) continue;
        hand_move(&h, k, +1);
        int v = hand_standard(&h);
        hand_move(&h, k, -1);
        if (v == FALLBACK) Py_RETURN_NONE;
        if (v < s) useful[n++] = k;
    }
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(useful[i]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return Py_BuildValue("(iN)", s, out);
}

/* ---- MCR shanten: every MCR winning form (see tenpai/hand/mcr.py, which this mirrors) ---- */

/* The knitted patterns, distance() and mcr_code() are in _mcr_shanten_core.h (shared with
 * the compiled MCR rollouts). */

/* mcr(counts) -> MCR shanten (best of standard, seven pairs with quads as two pairs, thirteen
 * orphans, honours and knitted tiles, knitted straight), or None for anything the fast path
 * does not handle. */
static PyObject *mcr(PyObject *self, PyObject *obj) {
    int c[34];
    if (ensure_ready() < 0) return NULL;
    if (read_counts(obj, c) < 0) Py_RETURN_NONE;
    int best = mcr_code(c);
    if (best == FALLBACK) Py_RETURN_NONE;
    return PyLong_FromLong(best);
}

static PyMethodDef methods[] = {
    {"standard_useful", standard_useful, METH_O,
     "Standard shanten of a 3k+1 hand and the kinds whose draw lowers it, or None."},
    {"mcr", mcr, METH_O, "MCR shanten of a 34-count vector (every MCR form), or None."},
    {"draw_shanten", draw_shanten, METH_O, "Shanten after each possible draw, or None."},
    {"useful_check", useful_check, METH_O,
     "Test hook: discard_useful's answers against the draw rows over many hands."},
    {"discard_useful", discard_useful, METH_O,
     "Per discard of a 3k+2 hand: shanten after it and the mask of kinds whose draw lowers it."},
    {"discard_draws", discard_draws, METH_VARARGS,
     "Per discard of a 3k+2 hand: shanten after it and the weight of the draws lowering it."},
    {"waits", waits, METH_O, "Winning kinds of a 3k+1-tile hand, or None."},
    {"configure", configure, METH_VARARGS, "Hand over the lookup tables built by tenpai.hand.tables."},
    {"install", install, METH_VARARGS, "Register the configure and fallback callables."},
    {"shanten", shanten, METH_O, "Riichi shanten of a 34-count vector."},
    {"standard", standard, METH_O, "Standard-form shanten of a 34-count vector."},
    {"complete", complete, METH_O, "Whether a 34-count vector is a complete Riichi hand."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_accel",
                                    "Optional C fast path for tenpai.hand (see _accel.c).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__accel(void) {
    init_kinds();
    init_knitted();
    for (int v = 0; v < 5; v++) {
        SMALL[v] = PyLong_FromLong(v); /* kept for the life of the process */
        if (SMALL[v] == NULL) return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    /* Raised whenever configure()'s arguments or a function's contract change, so that a stale
     * build left in a source tree is ignored (pure Python) instead of being called wrongly. */
    if (m != NULL && PyModule_AddIntConstant(m, "ABI", 4) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
