/*
 * Optional C accelerator for the shanten hot path.
 *
 * It holds no tables of its own: tenpai.hand.tables builds them with numpy and hands them over
 * through configure(), so the C and pure-Python paths read the very same numbers and can only
 * disagree through a bug the differential tests would catch.  Everything that is not the plain
 * fast case (a bad vector, an unconfigured module, an input that is not a list or tuple of 34
 * small ints) returns a sentinel and the Python caller takes its own path, which raises the
 * project's typed errors.  If this file cannot be compiled, the package works without it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define FALLBACK (-3)

static Py_buffer suit_buf, honor_buf, mp_buf, sh_buf, final_buf;
static int ready = 0;
static Py_ssize_t n_pin = 0, n_honor = 0, n_sh = 0;
static int invalid_code = 99;

/* Python callables: configure() builds and hands over the tables; the fallbacks answer (or
 * raise the typed error for) anything the fast path does not handle. */
static PyObject *cb_configure = NULL, *cb_shanten = NULL, *cb_standard = NULL,
                *cb_complete = NULL;

static const int TERMINALS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

static void release_all(void) {
    if (ready) {
        PyBuffer_Release(&suit_buf);
        PyBuffer_Release(&honor_buf);
        PyBuffer_Release(&mp_buf);
        PyBuffer_Release(&sh_buf);
        PyBuffer_Release(&final_buf);
        ready = 0;
    }
}

/* configure(suit_class, honor_class, mp_class, mp_cols, sh_class, sh_cols, final, final_cols,
 *           invalid) -- uint8 / uint8 / int16 / int16 / int8 C-contiguous buffers.  The two
 * pattern tables are one byte per entry (255 = no such pattern) so the 2 MB suit table stays
 * as cache-friendly as it can be: random hands make these look-ups the main cost. */
static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *suit, *honor, *mp, *sh, *fin;
    Py_ssize_t mp_cols, sh_cols, final_cols;
    int invalid;
    if (!PyArg_ParseTuple(args, "OOOnOnOni", &suit, &honor, &mp, &mp_cols, &sh, &sh_cols, &fin,
                          &final_cols, &invalid))
        return NULL;
    release_all();
    if (PyObject_GetBuffer(suit, &suit_buf, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (PyObject_GetBuffer(honor, &honor_buf, PyBUF_C_CONTIGUOUS) < 0) goto fail1;
    if (PyObject_GetBuffer(mp, &mp_buf, PyBUF_C_CONTIGUOUS) < 0) goto fail2;
    if (PyObject_GetBuffer(sh, &sh_buf, PyBUF_C_CONTIGUOUS) < 0) goto fail3;
    if (PyObject_GetBuffer(fin, &final_buf, PyBUF_C_CONTIGUOUS) < 0) goto fail4;
    if (suit_buf.len != 1953125 || honor_buf.len != 78125) {
        PyErr_SetString(PyExc_ValueError, "unexpected table sizes");
        goto fail5;
    }
    n_pin = mp_cols;
    n_honor = sh_cols;
    n_sh = final_cols;
    invalid_code = invalid;
    ready = 1;
    Py_RETURN_NONE;
fail5:
    PyBuffer_Release(&final_buf);
fail4:
    PyBuffer_Release(&sh_buf);
fail3:
    PyBuffer_Release(&mp_buf);
fail2:
    PyBuffer_Release(&honor_buf);
fail1:
    PyBuffer_Release(&suit_buf);
    return NULL;
}

/* Read 34 counts (0-4) from a list or tuple; returns 0 on success, -1 to fall back. */
static int read_counts(PyObject *obj, int *c) {
    PyObject **items;
    Py_ssize_t n;
    if (PyList_CheckExact(obj)) {
        n = PyList_GET_SIZE(obj);
        items = ((PyListObject *)obj)->ob_item;
    } else if (PyTuple_CheckExact(obj)) {
        n = PyTuple_GET_SIZE(obj);
        items = ((PyTupleObject *)obj)->ob_item;
    } else {
        return -1;
    }
    if (n != 34) return -1;
    for (int i = 0; i < 34; i++) {
        PyObject *o = items[i];
        if (!PyLong_CheckExact(o)) return -1;
        long v = PyLong_AsLong(o);
        if (v < 0 || v > 4) {
            PyErr_Clear();
            return -1;
        }
        c[i] = (int)v;
    }
    return 0;
}

/* Standard-form code from the tables, or FALLBACK; *tiles receives the tile count. */
static int standard_code(const int *c, int *tiles) {
    const uint8_t *suit = (const uint8_t *)suit_buf.buf;
    const uint8_t *honor = (const uint8_t *)honor_buf.buf;
    const int16_t *mp = (const int16_t *)mp_buf.buf;
    const int16_t *sh = (const int16_t *)sh_buf.buf;
    const int8_t *fin = (const int8_t *)final_buf.buf;
    int cls[4];
    int total = 0;
    for (int s = 0; s < 3; s++) {
        long key = 0;
        for (int i = 0; i < 9; i++) {
            key = key * 5 + c[s * 9 + i];
            total += c[s * 9 + i];
        }
        cls[s] = suit[key];
        if (cls[s] == 255) return FALLBACK;
    }
    long key = 0;
    for (int i = 27; i < 34; i++) {
        key = key * 5 + c[i];
        total += c[i];
    }
    cls[3] = honor[key];
    if (cls[3] == 255) return FALLBACK;
    *tiles = total;
    int a = mp[cls[0] * n_pin + cls[1]];
    int b = sh[cls[2] * n_honor + cls[3]];
    int code = fin[(Py_ssize_t)a * n_sh + b];
    if (code == invalid_code) return FALLBACK;
    return code;
}

static int chiitoi(const int *c) {
    int kinds = 0, pairs = 0;
    for (int i = 0; i < 34; i++) {
        if (c[i]) kinds++;
        if (c[i] >= 2) pairs++;
    }
    return 6 - pairs + (kinds < 7 ? 7 - kinds : 0);
}

static int kokushi(const int *c) {
    int have = 0, pair = 0;
    for (int i = 0; i < 13; i++) {
        int v = c[TERMINALS[i]];
        if (v) have++;
        if (v >= 2) pair = 1;
    }
    return 13 - have - pair;
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

/* Riichi shanten of a validated vector, or FALLBACK; *tiles receives the tile count. */
static int riichi_code(const int *c, int *tiles) {
    int s = standard_code(c, tiles);
    if (s == FALLBACK) return FALLBACK;
    if (*tiles >= 13) {
        int t = chiitoi(c);
        if (t < s) s = t;
        t = kokushi(c);
        if (t < s) s = t;
    }
    return s;
}

/* draw_shanten(counts) -> list of 34 shanten numbers after drawing each kind (99 where all
 * four copies are held), or None for anything but a valid 3k+1-tile list/tuple. */
static PyObject *draw_shanten(PyObject *self, PyObject *obj) {
    int c[34], tiles, after;
    if (ensure_ready() < 0) return NULL;
    if (read_counts(obj, c) < 0 || riichi_code(c, &tiles) == FALLBACK || tiles % 3 != 1)
        Py_RETURN_NONE;
    PyObject *out = PyList_New(34);
    if (out == NULL) return NULL;
    for (int k = 0; k < 34; k++) {
        int v = 99;
        if (c[k] < 4) {
            c[k]++;
            v = riichi_code(c, &after);
            c[k]--;
        }
        PyList_SET_ITEM(out, k, PyLong_FromLong(v));
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

static PyMethodDef methods[] = {
    {"draw_shanten", draw_shanten, METH_O, "Shanten after each possible draw, or None."},
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

PyMODINIT_FUNC PyInit__accel(void) { return PyModule_Create(&module); }
