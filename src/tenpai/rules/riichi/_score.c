/*
 * Optional C fast path for Riichi win scoring (tenpai.rules.riichi.evaluate and payments).
 *
 * The Python classes under tenpai/rules/riichi/yaku/ are the specification; this file is a
 * transcription of them, checked against them by tests/riichi_scoring/test_riichi_compiled.py on
 * random wins and by the corpus replay.  setup() is handed the Python yaku list in display
 * order and refuses to run (the package then stays on the Python path) unless every id, han
 * value and double flag matches the table below, so a yaku added on one side only cannot go
 * unnoticed.
 *
 * evaluate(ctx) reads the slots of a WinContext directly (their offsets come from the class's
 * member descriptors) and builds the WinResult the same way.  It returns NotImplemented -- the
 * sentinel that sends the caller down the Python path -- for anything that is not the exact
 * classes it was set up with (a subclass, a duck-typed context).  Contents it cannot score
 * safely (tile codes out of range, a fifth copy, a wrong number of tiles) raise ScoringError,
 * never read out of bounds.  If this file cannot be compiled the package works without it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#define ABI 1

#include "_score_core.h"

/* Ready-made result entries: (id, han) for a closed and an open hand, (id, 13) and (id, 26). */
static PyObject *yaku_ids[N_YAKU];
static PyObject *entry_closed[N_YAKU], *entry_open[N_YAKU], *entry_ym[N_YAKU][2];
#define N_DORA_CACHE 64
static PyObject *dora_entry[3][N_DORA_CACHE];
static PyObject *dora_names[3];

/* ------------------------------------------------------------------------- classes and slots */

enum {
    C_CLOSED, C_WIN_TILE, C_MELDS, C_TSUMO, C_SEAT_WIND, C_ROUND_WIND, C_RIICHI,
    C_DOUBLE_RIICHI, C_IPPATSU, C_HAITEI, C_HOUTEI, C_RINSHAN, C_CHANKAN, C_TENHOU, C_CHIIHOU,
    C_RENHOU, C_DORA, C_URA, C_RULES, C_NUKIDORA, N_CTX
};
static const char *CTX_FIELDS[N_CTX] = {
    "closed", "win_tile", "melds", "tsumo", "seat_wind", "round_wind", "riichi",
    "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou",
    "renhou", "dora_indicators", "ura_indicators", "rules", "nukidora"};

enum { M_KIND, M_TILES, M_FROM_SEAT, M_BASE, N_MELD };
static const char *MELD_FIELDS[N_MELD] = {"kind", "tiles", "from_seat", "base"};

enum {
    R_HAN, R_FU, R_YAKU, R_YAKUMAN, R_LIMIT, R_BASE, R_DEALER, R_TSUMO, R_RON, R_TSUMO_DEALER,
    R_TSUMO_NON_DEALER, R_PAO, R_PLAYERS, N_RES
};
static const char *RES_FIELDS[N_RES] = {
    "han", "fu", "yaku", "yakuman", "limit", "base_points", "dealer", "tsumo", "ron",
    "tsumo_dealer", "tsumo_non_dealer", "pao_yakuman", "players"};

enum {
    U_PLAYERS, U_RED_FIVES, U_NUKIDORA, U_OPEN_TANYAO, U_KAZOE, U_KIRIAGE, U_DOUBLE_VARIANTS,
    U_STACKING, U_DOUBLE_WIND_FU, U_RENHOU, U_PAO_YAKUMAN, U_PAO_SCOPE, U_HONBA_POINTS,
    U_RIICHI_DEPOSIT, N_RULES
};
static const char *RULE_FIELDS[N_RULES] = {
    "players", "red_fives", "nukidora", "open_tanyao", "kazoe_yakuman", "kiriage_mangan",
    "double_yakuman_variants", "yakuman_stacking", "double_wind_pair_fu", "renhou",
    "pao_yakuman", "pao_scope", "honba_points", "riichi_deposit"};

static PyTypeObject *ctx_type, *meld_type, *result_type, *rules_type;
static Py_ssize_t ctx_off[N_CTX], meld_off[N_MELD], res_off[N_RES], rules_off[N_RULES];
static PyObject *scoring_error;
static PyObject *s_chi, *s_pon, *s_daiminkan, *s_kakan, *s_ankan, *s_mangan_str,
    *s_yakuman_str, *s_whole_hand;
static PyObject *limit_names[10];
static int ready = 0;

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

static int slot_offsets(PyTypeObject *tp, const char **names, int n, Py_ssize_t *out) {
    for (int i = 0; i < n; i++) {
        PyObject *d = PyDict_GetItemString(tp->tp_dict, names[i]);
        if (d == NULL || !PyObject_TypeCheck(d, &PyMemberDescr_Type)) {
            PyErr_Format(PyExc_TypeError, "_score.setup: %s.%s is not a slot", tp->tp_name,
                         names[i]);
            return -1;
        }
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX && m->type != T_OBJECT) {
            PyErr_Format(PyExc_TypeError, "_score.setup: %s.%s is not an object slot",
                         tp->tp_name, names[i]);
            return -1;
        }
        out[i] = m->offset;
    }
    return 0;
}

/* ------------------------------------------------------------------------- rules cache */


#define N_RULES_CACHE 8
static Rules rules_cache[N_RULES_CACHE];
static int rules_next = 0;

/* 0 done; -1 an exception (a value out of range); -2 not an int at all, no exception: the
 * caller hands the context to Python, which accepts what it accepts (a numpy integer ...). */
static int as_int(PyObject *o, long *out, const char *what) {
    if (o == NULL || !PyLong_Check(o)) return -2;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        PyErr_Format(scoring_error, "%s is out of range", what);
        return -1;
    }
    *out = v;
    return 0;
}

/* In read_facts: -1 propagates the exception, -2 declines the context. */
#define TRY(call)                  \
    do {                           \
        int rc_ = (call);          \
        if (rc_ == -2) return 0;   \
        if (rc_ < 0) return -1;    \
    } while (0)

static int truth(PyObject *o, const char *what) {
    if (o == NULL) {
        PyErr_Format(scoring_error, "%s is missing", what);
        return -1;
    }
    if (o == Py_True) return 1;
    if (o == Py_False || o == Py_None) return 0;
    return PyObject_IsTrue(o);
}

static int str_eq(PyObject *a, PyObject *b) {
    if (a == b) return 1;
    if (!PyUnicode_Check(a)) return 0;
    return PyUnicode_Compare(a, b) == 0;
}

/* The rules' scoring and payment flags; NULL with an exception on a malformed object. */
static Rules *get_rules(PyObject *obj) {
    for (int i = 0; i < N_RULES_CACHE; i++)
        if (rules_cache[i].obj == obj) return &rules_cache[i];
    Rules r;
    memset(&r, 0, sizeof r);
    long v;
    PyObject *f[N_RULES];
    for (int i = 0; i < N_RULES; i++) {
        f[i] = SLOT(obj, rules_off[i]);
        if (f[i] == NULL) {
            PyErr_Format(scoring_error, "RiichiRules.%s is not set", RULE_FIELDS[i]);
            return NULL;
        }
    }
    if (as_int(f[U_PLAYERS], &v, "RiichiRules.players") < 0) return NULL; /* -2: no error set */
    if (v != 3 && v != 4) {
        PyErr_Format(scoring_error, "RiichiRules.players must be 3 or 4, got %ld", v);
        return NULL;
    }
    r.players = (int)v;
    if (as_int(f[U_RED_FIVES], &v, "RiichiRules.red_fives") < 0) return NULL;
    r.red_fives = v != 0;
    if ((r.open_tanyao = truth(f[U_OPEN_TANYAO], "open_tanyao")) < 0) return NULL;
    if ((r.kazoe = truth(f[U_KAZOE], "kazoe_yakuman")) < 0) return NULL;
    if ((r.kiriage = truth(f[U_KIRIAGE], "kiriage_mangan")) < 0) return NULL;
    if ((r.dbl_variants = truth(f[U_DOUBLE_VARIANTS], "double_yakuman_variants")) < 0)
        return NULL;
    if ((r.stacking = truth(f[U_STACKING], "yakuman_stacking")) < 0) return NULL;
    if (as_int(f[U_DOUBLE_WIND_FU], &v, "RiichiRules.double_wind_pair_fu") < 0) return NULL;
    if (v < -1000000 || v > 1000000) {
        PyErr_SetString(scoring_error, "RiichiRules.double_wind_pair_fu is out of range");
        return NULL;
    }
    r.dwpf = (int)v;
    r.renhou = str_eq(f[U_RENHOU], s_mangan_str) ? 1 : str_eq(f[U_RENHOU], s_yakuman_str) ? 2 : 0;
    r.pao_whole = str_eq(f[U_PAO_SCOPE], s_whole_hand);
    if (as_int(f[U_HONBA_POINTS], &v, "RiichiRules.honba_points") < 0) return NULL;
    if (v < 0 || v > 1000000) {
        PyErr_SetString(scoring_error, "RiichiRules.honba_points is out of range");
        return NULL;
    }
    r.honba_points = (int)v;
    if (as_int(f[U_RIICHI_DEPOSIT], &v, "RiichiRules.riichi_deposit") < 0) return NULL;
    if (v < 0 || v > 1000000) {
        PyErr_SetString(scoring_error, "RiichiRules.riichi_deposit is out of range");
        return NULL;
    }
    r.riichi_deposit = (int)v;
    for (int y = N_REGULAR; y < N_YAKU; y++) {
        int has = PySequence_Contains(f[U_PAO_YAKUMAN], yaku_ids[y]);
        if (has < 0) return NULL;
        if (has) r.pao_mask |= 1ULL << y;
    }
    Rules *slot = &rules_cache[rules_next];
    rules_next = (rules_next + 1) % N_RULES_CACHE;
    Py_XDECREF(slot->obj);
    *slot = r;
    Py_INCREF(obj);
    slot->obj = obj;
    return slot;
}


/* ------------------------------------------------------------------------- reading the ctx */

static int tile_tuple(PyObject *t, int *out, int max, const char *what) {
    if (t == NULL || !PyTuple_Check(t)) return -2;
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    if (n > max) {
        if (max > 14) return -2; /* indicators: more than a table has, but Python copes */
        PyErr_Format(scoring_error, "WinContext.%s holds %zd tiles", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        int rc = as_int(PyTuple_GET_ITEM(t, i), &v, what);
        if (rc < 0) return rc;
        if (v < 0 || v >= 37) {
            PyErr_Format(scoring_error, "WinContext.%s holds %ld, not a tile code (0-36)", what,
                         v);
            return -1;
        }
        out[i] = (int)v;
    }
    return (int)n;
}

/* 1 done, 0 not handled (fall back), -1 error. */
static int read_facts(PyObject *ctx, Facts *f) {
    PyObject *c[N_CTX];
    for (int i = 0; i < N_CTX; i++) {
        c[i] = SLOT(ctx, ctx_off[i]);
        if (c[i] == NULL) {
            PyErr_Format(scoring_error, "WinContext.%s is not set", CTX_FIELDS[i]);
            return -1;
        }
    }
    if (Py_TYPE(c[C_RULES]) != rules_type) return 0;
    memset(f, 0, sizeof *f);
    Rules *cached = get_rules(c[C_RULES]);
    if (cached == NULL) return PyErr_Occurred() ? -1 : 0;
    f->rules_v = *cached;
    f->rules_v.obj = NULL; /* not a reference of its own */
    f->rules = &f->rules_v;
    int closed[14], ind[64];
    int n = tile_tuple(c[C_CLOSED], closed, 14, "closed");
    TRY(n);
    PyObject *melds = c[C_MELDS];
    if (!PyTuple_Check(melds)) return 0;
    if (PyTuple_GET_SIZE(melds) > 4) {
        PyErr_SetString(scoring_error, "WinContext.melds must be a tuple of at most 4 melds");
        return -1;
    }
    int nm = (int)PyTuple_GET_SIZE(melds);
    if (n + 3 * nm != 14) {
        PyErr_Format(scoring_error, "WinContext.closed has %d tiles; with %d melds a win needs %d",
                     n, nm, 14 - 3 * nm);
        return -1;
    }
    long v;
    TRY(as_int(c[C_WIN_TILE], &v, "WinContext.win_tile"));
    int win = (int)v, found = 0;
    for (int i = 0; i < n; i++) {
        int k = kind_of(closed[i]);
        f->closed_counts[k]++;
        f->reds += closed[i] >= 34;
        if (closed[i] == win) found = 1;
    }
    if (!found) {
        PyErr_SetString(scoring_error, "WinContext.win_tile is not among the closed tiles");
        return -1;
    }
    memcpy(f->counts, f->closed_counts, sizeof f->counts);
    int total = n;
    f->closed = 1;
    f->n_melds = nm;
    f->has_melds = nm > 0;
    for (int i = 0; i < nm; i++) {
        PyObject *m = PyTuple_GET_ITEM(melds, i);
        if (Py_TYPE(m) != meld_type) return 0;
        PyObject *kind = SLOT(m, meld_off[M_KIND]);
        PyObject *tiles = SLOT(m, meld_off[M_TILES]);
        if (kind == NULL || tiles == NULL) {
            PyErr_SetString(scoring_error, "Meld is not initialised");
            return -1;
        }
        int is_chi = str_eq(kind, s_chi), is_pon = !is_chi && str_eq(kind, s_pon);
        int is_ankan = !is_chi && !is_pon && str_eq(kind, s_ankan);
        int is_kan = is_ankan || str_eq(kind, s_daiminkan) || str_eq(kind, s_kakan);
        if (!is_chi && !is_pon && !is_kan) {
            PyErr_SetString(scoring_error, "Meld.kind is not chi/pon/daiminkan/kakan/ankan");
            return -1;
        }
        int mt[4];
        int mn = tile_tuple(tiles, mt, 4, "melds");
        TRY(mn);
        if (mn != (is_kan ? 4 : 3)) {
            PyErr_SetString(scoring_error, "Meld.tiles has the wrong number of tiles");
            return -1;
        }
        int lo = 99, kinds[4];
        for (int j = 0; j < mn; j++) {
            kinds[j] = kind_of(mt[j]);
            if (kinds[j] < lo) lo = kinds[j];
            f->counts[kinds[j]]++;
            f->reds += mt[j] >= 34;
        }
        int seen = 0;
        for (int j = 0; j < mn; j++) {
            int d = kinds[j] - lo;
            if (is_chi ? (d > 2 || (seen & (1 << d))) : d != 0) {
                PyErr_SetString(scoring_error, "Meld.tiles do not form the meld's kind");
                return -1;
            }
            seen |= 1 << d;
        }
        if (is_chi && (lo >= 27 || lo % 9 > 6)) {
            PyErr_SetString(scoring_error, "Meld.tiles is not a chi");
            return -1;
        }
        total += mn;
        int open = !is_ankan;
        if (open) f->closed = 0;
        f->meld_sets[i] = (Set){(unsigned char)is_chi, (unsigned char)lo, (unsigned char)open,
                                (unsigned char)(mn == 4), (unsigned char)!open};
    }
    TRY(as_int(c[C_NUKIDORA], &v, "WinContext.nukidora"));
    if (v < 0 || v > 4) {
        PyErr_SetString(scoring_error, "WinContext.nukidora is not 0-4");
        return -1;
    }
    f->nukidora = (int)v;
    for (int k = 0; k < 34; k++)
        if (f->counts[k] + (k == 30 ? f->nukidora : 0) > 4) {
            PyErr_SetString(scoring_error, "WinContext holds more than 4 copies of a tile");
            return -1;
        }
    f->win_kind = kind_of(win);
    if ((f->tsumo = truth(c[C_TSUMO], "tsumo")) < 0) return -1;
    TRY(as_int(c[C_SEAT_WIND], &v, "WinContext.seat_wind"));
    f->seat_wind = (int)v;
    TRY(as_int(c[C_ROUND_WIND], &v, "WinContext.round_wind"));
    f->round_wind = (int)v;
    if (f->seat_wind < 27 || f->seat_wind > 30 || f->round_wind < 27 || f->round_wind > 30) {
        PyErr_SetString(scoring_error, "WinContext winds must be wind kinds 27-30");
        return -1;
    }
    f->dealer = f->seat_wind == 27;
    int *flags[] = {&f->riichi, &f->double_riichi, &f->ippatsu, &f->haitei, &f->houtei,
                    &f->rinshan, &f->chankan, &f->tenhou, &f->chiihou, &f->renhou_flag};
    for (int i = 0; i < 10; i++)
        if ((*flags[i] = truth(c[C_RIICHI + i], CTX_FIELDS[C_RIICHI + i])) < 0) return -1;
    facts_shape(f, total);
    /* dora (count_dora): Norths set aside count as a dora each and for every North shown */
    int table_players = f->rules->players;
    int dc[34];
    memcpy(dc, f->counts, sizeof dc);
    dc[30] += f->nukidora;
    int ni = tile_tuple(c[C_DORA], ind, 64, "dora_indicators");
    TRY(ni);
    f->dora[0] = f->nukidora;
    f->dora[0] += dora_hits(dc, ind, ni, table_players);
    ni = tile_tuple(c[C_URA], ind, 64, "ura_indicators");
    TRY(ni);
    if (f->riichi || f->double_riichi)
        f->dora[2] += dora_hits(dc, ind, ni, table_players);
    f->dora[1] = f->rules->red_fives ? f->reds : 0;
    return 1;
}

/* ------------------------------------------------------------------------- evaluate */

static PyObject *int_obj(long long v) { return PyLong_FromLongLong(v); }

static PyObject *make_result(int han, int fu, PyObject *yaku, int ym, int limit, long long base,
                             const Facts *f, int ron, int from_dealer, int from_other, int pao) {
    PyObject *obj = result_type->tp_alloc(result_type, 0);
    if (obj == NULL) {
        Py_DECREF(yaku);
        return NULL;
    }
    PyObject *lim;
    if (limit < 9) {
        lim = limit_names[limit];
        Py_INCREF(lim);
    } else {
        lim = PyUnicode_FromFormat("%dx_yakuman", ym);
    }
    PyObject *vals[N_RES] = {
        int_obj(han), int_obj(fu), yaku, int_obj(ym), lim, int_obj(base),
        PyBool_FromLong(f->dealer), PyBool_FromLong(f->tsumo), int_obj(ron),
        int_obj(from_dealer), int_obj(from_other), int_obj(pao), int_obj(f->rules->players)};
    int bad = 0;
    for (int i = 0; i < N_RES; i++) {
        if (vals[i] == NULL) bad = 1;
        SLOT(obj, res_off[i]) = vals[i];
    }
    if (bad) {
        Py_DECREF(obj);
        return NULL;
    }
    return obj;
}

static PyObject *evaluate(PyObject *self, PyObject *ctx) {
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_score.setup() has not been called");
        return NULL;
    }
    if (Py_TYPE(ctx) != ctx_type) Py_RETURN_NOTIMPLEMENTED;
    Facts f;
    int got = read_facts(ctx, &f);
    if (got < 0) return NULL;
    if (got == 0) Py_RETURN_NOTIMPLEMENTED;
    const Rules *rules = f.rules;
    ScoreOut so;
    int scored = score_facts(&f, &so);
    if (scored < 0) Py_RETURN_NOTIMPLEMENTED;
    if (scored == 0) Py_RETURN_NONE;
    int closed = f.closed, bk_han = so.han, bk_fu = so.fu, best_mult = so.mult;
    unsigned long long best_mask = so.mask;

    PyObject *yaku;
    int pao = 0;
    if (best_mult) {
        int count = 0;
        for (int y = N_REGULAR; y < N_YAKU; y++) count += (best_mask >> y & 1);
        if (!rules->stacking) {
            /* the first entry of the largest value, in display order */
            int pick = -1, pv = 0;
            for (int y = N_REGULAR; y < N_YAKU; y++)
                if ((best_mask >> y & 1) && ym_value(y, rules) > pv) {
                    pv = ym_value(y, rules);
                    pick = y;
                }
            yaku = PyTuple_New(1);
            if (yaku == NULL) return NULL;
            PyObject *e = entry_ym[pick][pv - 1];
            Py_INCREF(e);
            PyTuple_SET_ITEM(yaku, 0, e);
        } else {
            yaku = PyTuple_New(count);
            if (yaku == NULL) return NULL;
            int j = 0;
            for (int y = N_REGULAR; y < N_YAKU; y++)
                if (best_mask >> y & 1) {
                    PyObject *e = entry_ym[y][ym_value(y, rules) - 1];
                    Py_INCREF(e);
                    PyTuple_SET_ITEM(yaku, j++, e);
                }
        }
        for (int y = N_REGULAR; y < N_YAKU; y++)
            if ((best_mask >> y & 1) && (rules->pao_mask >> y & 1)) pao += ym_value(y, rules);
    } else {
        int count = 0;
        for (int y = 0; y < N_REGULAR; y++) count += (best_mask >> y & 1);
        for (int k = 0; k < 3; k++) count += f.dora[k] != 0;
        yaku = PyTuple_New(count);
        if (yaku == NULL) return NULL;
        int j = 0;
        for (int y = 0; y < N_REGULAR; y++)
            if (best_mask >> y & 1) {
                PyObject *e = closed ? entry_closed[y] : entry_open[y];
                Py_INCREF(e);
                PyTuple_SET_ITEM(yaku, j++, e);
            }
        for (int k = 0; k < 3; k++) {
            int d = f.dora[k];
            if (!d) continue;
            PyObject *e;
            if (d > 0 && d < N_DORA_CACHE) {
                e = dora_entry[k][d];
                Py_INCREF(e);
            } else {
                e = Py_BuildValue("(Oi)", dora_names[k], d);
                if (e == NULL) {
                    Py_DECREF(yaku);
                    return NULL;
                }
            }
            PyTuple_SET_ITEM(yaku, j++, e);
        }
    }
    int lim, ron, fd, fo;
    long long base = base_points(bk_han, bk_fu, best_mult, rules, &lim);
    payment_split(base, f.dealer, f.tsumo, &ron, &fd, &fo);
    return make_result(bk_han, bk_fu, yaku, best_mult, lim, base, &f, ron, fd, fo, pao);
}

/* ------------------------------------------------------------------------- payments */

static int seat_arg(PyObject *o, long *out, int allow_none) {
    if (o == Py_None && allow_none) {
        *out = -1;
        return 1;
    }
    if (!PyLong_Check(o)) return 0;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    *out = v;
    return 1;
}

/* payments(result, rules, winner, dealer, discarder, honba, kyotaku, pao): the per-seat list,
 * or NotImplemented for anything but a plain valid call (the Python side then raises the
 * typed error with its message). */
static PyObject *payments(PyObject *self, PyObject *args) {
    PyObject *res, *robj, *o_w, *o_d, *o_disc, *o_h, *o_k, *o_pao;
    if (!PyArg_ParseTuple(args, "OOOOOOOO", &res, &robj, &o_w, &o_d, &o_disc, &o_h, &o_k, &o_pao))
        return NULL;
    if (!ready || Py_TYPE(res) != result_type || Py_TYPE(robj) != rules_type)
        Py_RETURN_NOTIMPLEMENTED;
    Rules *r = get_rules(robj);
    if (r == NULL) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NOTIMPLEMENTED;
    }
    long winner, dealer, disc, honba, kyotaku, pao;
    if (!seat_arg(o_w, &winner, 0) || !seat_arg(o_d, &dealer, 0) ||
        !seat_arg(o_disc, &disc, 1) || !seat_arg(o_h, &honba, 0) || !seat_arg(o_k, &kyotaku, 0) ||
        !seat_arg(o_pao, &pao, 1))
        Py_RETURN_NOTIMPLEMENTED;
    int n = r->players;
    if (winner < 0 || winner >= n || dealer < 0 || dealer >= n || disc >= n || pao >= n)
        Py_RETURN_NOTIMPLEMENTED;
    if ((o_disc != Py_None && disc < 0) || (o_pao != Py_None && pao < 0)) Py_RETURN_NOTIMPLEMENTED;
    if (honba < 0 || kyotaku < 0 || honba > 1000000 || kyotaku > 1000000)
        Py_RETURN_NOTIMPLEMENTED;
    long fields[6];
    int rf[6] = {R_BASE, R_PAO, R_DEALER, R_TSUMO, R_RON, R_PLAYERS};
    for (int i = 0; i < 6; i++) {
        PyObject *v = SLOT(res, res_off[rf[i]]);
        if (v == NULL || !seat_arg(v, &fields[i], 0)) Py_RETURN_NOTIMPLEMENTED;
    }
    long base = fields[0], pao_ym = fields[1];
    int rdealer = fields[2] != 0, tsumo = fields[3] != 0;
    if (base < 0 || base > 100000000 || pao_ym < 0 || pao_ym > 1000)
        Py_RETURN_NOTIMPLEMENTED;
    if (tsumo != (disc < 0)) Py_RETURN_NOTIMPLEMENTED;
    if (disc == winner || pao == winner) Py_RETURN_NOTIMPLEMENTED;
    if ((winner == dealer) != rdealer) Py_RETURN_NOTIMPLEMENTED;

    long long deltas[4];
    pay_core(r, base, pao_ym, rdealer, tsumo, (int)winner, (int)dealer, (int)disc, honba, kyotaku,
             (int)pao, deltas);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLongLong(deltas[i]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}


/* ------------------------------------------------------------------------- constructors */

/* WinContext(...) and Meld(...) spend most of a scoring call in the dataclass __init__ and in
 * __post_init__'s checks.  install_constructors() replaces the two classes' tp_init with the
 * functions below: they fill the slots the way the dataclass __init__ does (positional or
 * keyword, defaults from the dataclass fields) and run a conservative C version of the checks.
 * Only when that check says "certainly valid" is __post_init__ skipped; anything else -- an
 * unusual argument, a non-bool flag, a context the check does not accept -- goes through the
 * Python __init__ or __post_init__, which stay the specification and raise the typed errors. */

static initproc orig_ctx_init, orig_meld_init;
static PyObject *ctx_defaults[N_CTX], *meld_defaults[3], *ctx_names[N_CTX], *meld_names[3];
static PyObject *s_post_init;
static int ctors_installed = 0;

static int fill_slots(PyObject *self, PyObject *args, PyObject *kwds, int n, PyObject **names,
                      PyObject **defaults, const Py_ssize_t *offs) {
    PyObject *vals[N_CTX];
    Py_ssize_t np = PyTuple_GET_SIZE(args);
    if (np > n) return 0;
    for (int i = 0; i < n; i++) vals[i] = i < np ? PyTuple_GET_ITEM(args, i) : NULL;
    if (kwds != NULL) {
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(kwds, &pos, &key, &value)) {
            int found = -1;
            for (int i = 0; i < n; i++)
                if (key == names[i]) {
                    found = i;
                    break;
                }
            if (found < 0 && PyUnicode_Check(key))
                for (int i = 0; i < n; i++)
                    if (PyUnicode_Compare(key, names[i]) == 0) {
                        found = i;
                        break;
                    }
            if (found < 0 || vals[found] != NULL) return 0;
            vals[found] = value;
        }
    }
    for (int i = 0; i < n; i++) {
        if (vals[i] == NULL) vals[i] = defaults[i];
        if (vals[i] == NULL) return 0;
    }
    for (int i = 0; i < n; i++) {
        Py_INCREF(vals[i]);
        Py_XSETREF(SLOT(self, offs[i]), vals[i]);
    }
    return 1;
}

static int exact_small(PyObject *o, long lo, long hi, long *out) {
    if (!PyLong_CheckExact(o)) return 0;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

/* 1: the Meld is valid and its base kind is *base; 0: let __post_init__ decide. */
static int meld_valid(PyObject *self, int *base) {
    PyObject *kind = SLOT(self, meld_off[M_KIND]), *tiles = SLOT(self, meld_off[M_TILES]),
             *from = SLOT(self, meld_off[M_FROM_SEAT]);
    int is_chi = kind == s_chi, is_pon = kind == s_pon, is_ankan = kind == s_ankan;
    int is_kan = is_ankan || kind == s_daiminkan || kind == s_kakan;
    if (!is_chi && !is_pon && !is_kan) return 0;
    if (!PyTuple_CheckExact(tiles) || PyTuple_GET_SIZE(tiles) != (is_kan ? 4 : 3)) return 0;
    int kinds[4], lo = 99, n = (int)PyTuple_GET_SIZE(tiles);
    for (int i = 0; i < n; i++) {
        long v;
        if (!exact_small(PyTuple_GET_ITEM(tiles, i), 0, 36, &v)) return 0;
        kinds[i] = kind_of((int)v);
        if (kinds[i] < lo) lo = kinds[i];
    }
    int seen = 0;
    for (int i = 0; i < n; i++) {
        int d = kinds[i] - lo;
        if (is_chi ? (d > 2 || (seen & (1 << d))) : d != 0) return 0;
        seen |= 1 << d;
    }
    if (is_chi && (lo >= 27 || lo % 9 > 6)) return 0;
    if (from != Py_None) {
        long v;
        if (is_ankan || !exact_small(from, 0, 3, &v)) return 0;
    }
    *base = lo;
    return 1;
}

static int meld_init(PyObject *self, PyObject *args, PyObject *kwds) {
    if (Py_TYPE(self) != meld_type || !fill_slots(self, args, kwds, 3, meld_names,
                                                  meld_defaults, meld_off))
        return orig_meld_init(self, args, kwds);
    int base;
    if (meld_valid(self, &base)) {
        PyObject *b = PyLong_FromLong(base);
        if (b == NULL) return -1;
        Py_XSETREF(SLOT(self, meld_off[M_BASE]), b);
        return 0;
    }
    PyObject *r = PyObject_CallMethodNoArgs(self, s_post_init);
    if (r == NULL) return -1;
    Py_DECREF(r);
    return 0;
}

static int flag(PyObject *o) { return o == Py_True ? 1 : o == Py_False ? 0 : -1; }

/* 1 when WinContext.__post_init__ would certainly accept the context, else 0. */
static int ctx_valid(PyObject *self) {
    PyObject *c[N_CTX];
    for (int i = 0; i < N_CTX; i++) c[i] = SLOT(self, ctx_off[i]);
    PyObject *rules = c[C_RULES];
    if (Py_TYPE(rules) != rules_type) return 0;
    PyObject *players_o = SLOT(rules, rules_off[U_PLAYERS]),
             *reds_o = SLOT(rules, rules_off[U_RED_FIVES]),
             *kita_o = SLOT(rules, rules_off[U_NUKIDORA]);
    long players, red_fives, v;
    if (!players_o || !reds_o || !kita_o || !exact_small(players_o, 3, 4, &players) ||
        !exact_small(reds_o, 0, 3, &red_fives))
        return 0;
    int kita_rule = flag(kita_o);
    if (kita_rule < 0) return 0;
    PyObject *closed = c[C_CLOSED], *melds = c[C_MELDS];
    if (!PyTuple_CheckExact(closed) || !PyTuple_CheckExact(melds)) return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(closed), nm = PyTuple_GET_SIZE(melds);
    if (nm > 4 || n + 3 * nm != 14) return 0;
    int counts[34] = {0}, reds[3] = {0, 0, 0}, found = 0;
    long win;
    if (!exact_small(c[C_WIN_TILE], 0, 36, &win)) return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!exact_small(PyTuple_GET_ITEM(closed, i), 0, 36, &v)) return 0;
        counts[kind_of((int)v)]++;
        if (v >= 34) reds[v - 34]++;
        if (v == win) found = 1;
    }
    if (!found) return 0;
    int opened = 0, any_kan = 0;
    for (Py_ssize_t i = 0; i < nm; i++) {
        PyObject *m = PyTuple_GET_ITEM(melds, i);
        if (Py_TYPE(m) != meld_type) return 0;
        PyObject *kind = SLOT(m, meld_off[M_KIND]), *tiles = SLOT(m, meld_off[M_TILES]);
        if (kind == NULL || tiles == NULL || !PyTuple_CheckExact(tiles)) return 0;
        int is_kan = kind == s_daiminkan || kind == s_kakan || kind == s_ankan;
        if (!is_kan && kind != s_chi && kind != s_pon) return 0;
        if (kind != s_ankan) opened = 1;
        if (is_kan) any_kan = 1;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(tiles); j++) {
            if (!exact_small(PyTuple_GET_ITEM(tiles, j), 0, 36, &v)) return 0;
            counts[kind_of((int)v)]++;
            if (v >= 34) reds[v - 34]++;
        }
    }
    long kita;
    if (!exact_small(c[C_NUKIDORA], 0, 4, &kita)) return 0;
    if (kita && !kita_rule) return 0;
    counts[30] += (int)kita;
    for (int k = 0; k < 34; k++)
        if (counts[k] > 4) return 0;
    long seat, round;
    if (!exact_small(c[C_SEAT_WIND], 27, 30, &seat) || !exact_small(c[C_ROUND_WIND], 27, 30, &round))
        return 0;
    if (players == 3) {
        for (int k = 1; k < 8; k++)
            if (counts[k]) return 0;
        if (seat == 30 || round == 30) return 0;
    }
    if (reds[0] > 1 || reds[1] > 1 || reds[2] > 1) return 0;
    if (red_fives == 0 && (reds[0] || reds[1] || reds[2])) return 0;
    for (int w = C_DORA; w <= C_URA; w++) {
        if (!PyTuple_CheckExact(c[w])) return 0;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(c[w]); i++)
            if (!exact_small(PyTuple_GET_ITEM(c[w], i), 0, 36, &v)) return 0;
    }
    int f[N_CTX];
    for (int i = C_TSUMO; i <= C_RENHOU; i++) {
        if (i == C_SEAT_WIND || i == C_ROUND_WIND) continue;
        if ((f[i] = flag(c[i])) < 0) return 0;
    }
    int tsumo = f[C_TSUMO], riichi = f[C_RIICHI], dbl = f[C_DOUBLE_RIICHI];
    int dealer = seat == 27;
    if ((riichi || dbl) && opened) return 0;
    if (riichi && dbl) return 0;
    if (f[C_IPPATSU] && !(riichi || dbl)) return 0;
    if (f[C_IPPATSU] && f[C_RINSHAN]) return 0;
    if (f[C_HAITEI] && !tsumo) return 0;
    if (f[C_RINSHAN] && !tsumo) return 0;
    if (f[C_RINSHAN] && !any_kan && !kita) return 0;
    if (f[C_HAITEI] && f[C_RINSHAN]) return 0;
    if ((f[C_HOUTEI] || f[C_CHANKAN]) && tsumo) return 0;
    if (f[C_HOUTEI] && f[C_CHANKAN]) return 0;
    if (f[C_TENHOU] && !(dealer && tsumo && nm == 0)) return 0;
    if (f[C_CHIIHOU] && (dealer || !tsumo || nm)) return 0;
    if (f[C_RENHOU] && (dealer || tsumo || nm)) return 0;
    return 1;
}

static int ctx_init(PyObject *self, PyObject *args, PyObject *kwds) {
    if (Py_TYPE(self) != ctx_type ||
        !fill_slots(self, args, kwds, N_CTX, ctx_names, ctx_defaults, ctx_off))
        return orig_ctx_init(self, args, kwds);
    if (ctx_valid(self)) return 0;
    PyObject *r = PyObject_CallMethodNoArgs(self, s_post_init);
    if (r == NULL) return -1;
    Py_DECREF(r);
    return 0;
}

/* install_constructors(ctx_defaults, meld_defaults): the dataclass defaults of every init
 * field in order, None standing for "required" (no field of either class defaults to None
 * except Meld.from_seat, passed as the one-element tuple (None,) to tell them apart). */
static int read_defaults(PyObject *seq, int n, PyObject **out, PyObject **names,
                         const char **fields) {
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) != n) {
        PyErr_SetString(PyExc_ValueError, "install_constructors: wrong number of defaults");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *d = PyTuple_GET_ITEM(seq, i);
        Py_CLEAR(out[i]);
        if (d == Py_None)
            out[i] = NULL;
        else if (PyTuple_Check(d) && PyTuple_GET_SIZE(d) == 1) {
            out[i] = PyTuple_GET_ITEM(d, 0);
            Py_INCREF(out[i]);
        } else {
            PyErr_SetString(PyExc_ValueError, "install_constructors: defaults are (value,) or None");
            return -1;
        }
        Py_XSETREF(names[i], PyUnicode_InternFromString(fields[i]));
        if (names[i] == NULL) return -1;
    }
    return 0;
}

static PyObject *install_constructors(PyObject *self, PyObject *args) {
    PyObject *cd, *md;
    if (!PyArg_ParseTuple(args, "OO", &cd, &md)) return NULL;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_score.setup() has not been called");
        return NULL;
    }
    if (read_defaults(cd, N_CTX, ctx_defaults, ctx_names, CTX_FIELDS) < 0 ||
        read_defaults(md, 3, meld_defaults, meld_names, MELD_FIELDS) < 0)
        return NULL;
    if (s_post_init == NULL) s_post_init = PyUnicode_InternFromString("__post_init__");
    if (!ctors_installed) {
        orig_ctx_init = ctx_type->tp_init;
        orig_meld_init = meld_type->tp_init;
        ctx_type->tp_init = ctx_init;
        meld_type->tp_init = meld_init;
        ctors_installed = 1;
    }
    Py_RETURN_NONE;
}

/* uninstall_constructors(): back to the dataclass __init__ (tests compare both). */
static PyObject *uninstall_constructors(PyObject *self, PyObject *unused) {
    if (ctors_installed) {
        ctx_type->tp_init = orig_ctx_init;
        meld_type->tp_init = orig_meld_init;
        ctors_installed = 0;
    }
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------- setup */

static PyObject *pair_entry(PyObject *id, int n) { return Py_BuildValue("(Oi)", id, n); }

/* setup(WinContext, Meld, WinResult, RiichiRules, ScoringError, yaku) where ``yaku`` is a
 * sequence of (id, han_closed, han_open, yakuman, double) in display order. */
static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *c, *m, *r, *u, *err, *yl;
    if (!PyArg_ParseTuple(args, "O!O!O!O!OO", &PyType_Type, &c, &PyType_Type, &m, &PyType_Type,
                          &r, &PyType_Type, &u, &err, &yl))
        return NULL;
    if (ctors_installed && ((PyTypeObject *)c != ctx_type || (PyTypeObject *)m != meld_type)) {
        PyErr_SetString(PyExc_RuntimeError, "_score.setup: constructors installed on other classes");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(yl, "_score.setup: yaku must be a sequence");
    if (seq == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != N_YAKU) {
        PyErr_Format(PyExc_ValueError, "_score.setup: %zd yaku in Python, %d in C",
                     PySequence_Fast_GET_SIZE(seq), N_YAKU);
        Py_DECREF(seq);
        return NULL;
    }
    for (int i = 0; i < N_YAKU; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        const char *id;
        int hc, ho, ym, dbl;
        if (!PyArg_ParseTuple(item, "siiii", &id, &hc, &ho, &ym, &dbl)) {
            Py_DECREF(seq);
            return NULL;
        }
        if (strcmp(id, YAKU[i].id) || hc != YAKU[i].han_closed || ho != YAKU[i].han_open ||
            (ym != 0) != YAKU[i].yakuman || (dbl != 0) != YAKU[i].dbl) {
            PyErr_Format(PyExc_ValueError,
                         "_score.setup: yaku %d is %s (%d/%d han) in Python but %s in C", i, id,
                         hc, ho, YAKU[i].id);
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    ready = 0;
    if (slot_offsets((PyTypeObject *)c, CTX_FIELDS, N_CTX, ctx_off) < 0 ||
        slot_offsets((PyTypeObject *)m, MELD_FIELDS, N_MELD, meld_off) < 0 ||
        slot_offsets((PyTypeObject *)r, RES_FIELDS, N_RES, res_off) < 0 ||
        slot_offsets((PyTypeObject *)u, RULE_FIELDS, N_RULES, rules_off) < 0)
        return NULL;
    for (int i = 0; i < N_YAKU; i++) {
        Py_XDECREF(yaku_ids[i]);
        yaku_ids[i] = PyUnicode_InternFromString(YAKU[i].id);
        Py_XDECREF(entry_closed[i]);
        Py_XDECREF(entry_open[i]);
        Py_XDECREF(entry_ym[i][0]);
        Py_XDECREF(entry_ym[i][1]);
        entry_closed[i] = pair_entry(yaku_ids[i], YAKU[i].han_closed);
        entry_open[i] = pair_entry(yaku_ids[i], YAKU[i].han_open);
        entry_ym[i][0] = pair_entry(yaku_ids[i], 13);
        entry_ym[i][1] = pair_entry(yaku_ids[i], 26);
        if (!entry_closed[i] || !entry_open[i] || !entry_ym[i][0] || !entry_ym[i][1])
            return NULL;
    }
    const char *dn[3] = {"dora", "aka_dora", "ura_dora"};
    for (int k = 0; k < 3; k++) {
        Py_XDECREF(dora_names[k]);
        dora_names[k] = PyUnicode_InternFromString(dn[k]);
        for (int d = 0; d < N_DORA_CACHE; d++) {
            Py_XDECREF(dora_entry[k][d]);
            dora_entry[k][d] = pair_entry(dora_names[k], d);
            if (dora_entry[k][d] == NULL) return NULL;
        }
    }
    const char *ln[9] = {"", "mangan", "haneman", "baiman", "sanbaiman", "kazoe_yakuman",
                         "yakuman", "double_yakuman", "triple_yakuman"};
    for (int i = 0; i < 9; i++) {
        Py_XDECREF(limit_names[i]);
        limit_names[i] = PyUnicode_InternFromString(ln[i]);
    }
    (void)LIMIT_STR;
    for (int i = 0; i < N_RULES_CACHE; i++) Py_CLEAR(rules_cache[i].obj);
#define INTERN(var, text) \
    Py_XDECREF(var);      \
    var = PyUnicode_InternFromString(text)
    INTERN(s_chi, "chi");
    INTERN(s_pon, "pon");
    INTERN(s_daiminkan, "daiminkan");
    INTERN(s_kakan, "kakan");
    INTERN(s_ankan, "ankan");
    INTERN(s_mangan_str, "mangan");
    INTERN(s_yakuman_str, "yakuman");
    INTERN(s_whole_hand, "whole_hand");
#undef INTERN
    Py_INCREF(c);
    Py_INCREF(m);
    Py_INCREF(r);
    Py_INCREF(u);
    Py_INCREF(err);
    Py_XSETREF(ctx_type, (PyTypeObject *)c);
    Py_XSETREF(meld_type, (PyTypeObject *)m);
    Py_XSETREF(result_type, (PyTypeObject *)r);
    Py_XSETREF(rules_type, (PyTypeObject *)u);
    Py_XSETREF(scoring_error, err);
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "Hand over the classes and check the yaku table."},
    {"evaluate", evaluate, METH_O, "Score a WinContext (NotImplemented: use Python)."},
    {"payments", payments, METH_VARARGS, "Per-seat deltas (NotImplemented: use Python)."},
    {"install_constructors", install_constructors, METH_VARARGS,
     "Fast WinContext/Meld construction (Python checks kept as the fallback)."},
    {"uninstall_constructors", uninstall_constructors, METH_NOARGS,
     "Back to the dataclass constructors."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_score",
                                    "Compiled Riichi win scoring (see evaluate.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__score(void) {
    PyObject *mod = PyModule_Create(&module);
    if (mod == NULL) return NULL;
    if (PyModule_AddIntConstant(mod, "ABI", ABI) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
