/* Private: the Python binding of the solver's compiled search (_solver_search.c),
 * the extension module calabrasella.bots._solver_native (see
 * _solver_core.NativeSearch, its one user).
 *
 * Its type Core holds one Search: Core(bonus, follow, suits, units, classes,
 * clock, exc, bits) sets it up from the engine's tables, probe(h0, h1, h2,
 * lead, rest, t) searches, release() frees its tables; nodes, limit and
 * deadline are its counters. When the node limit or the deadline stops a
 * probe, it raises exc(nodes). `clock` is called (every 1,024 nodes, when a
 * deadline is set) for the time the deadline is on.
 *
 * Written to the limited API of Python 3.10 (a build may define
 * Py_LIMITED_API and give one abi3 module for every Python from 3.10).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_solver_search.h"

typedef struct {
    PyObject_HEAD
    Search search;
    PyObject *clock;
    PyObject *exc;
} Core;

/* The search's clock: calls the Python one; NaN (with the exception set) if that fails. */
static double call_clock(void *data) {
    PyObject *now = PyObject_CallNoArgs((PyObject *)data);
    if (!now) return Py_NAN;
    double d = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (d == -1.0 && PyErr_Occurred()) return Py_NAN;
    return d;
}

/* A tuple of n ints from `values` into out (as C longs); 0 and an exception if not. */
static int longs_of(PyObject *values, Py_ssize_t n, long *out, const char *what) {
    if (!PyTuple_Check(values) || PyTuple_Size(values) != n) {
        PyErr_Format(PyExc_ValueError, "expected 4 suit masks, 40 units and 40 unit classes (%s)", what);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsLong(PyTuple_GetItem(values, i));
        if (out[i] == -1 && PyErr_Occurred()) return 0;
    }
    return 1;
}

static int Core_init(Core *self, PyObject *args, PyObject *kwds) {
    int bonus, follow, bits;
    PyObject *suits, *units, *classes, *clock, *exc;
    static char *kwlist[] = {"bonus", "follow", "suits", "units", "classes", "clock", "exc", "bits", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ipOOOOOi", kwlist, &bonus, &follow, &suits, &units,
                                     &classes, &clock, &exc, &bits))
        return -1;
    u64 masks[4];
    long unit_of[40], class_of[40];
    if (!PyTuple_Check(suits) || PyTuple_Size(suits) != 4) {
        PyErr_SetString(PyExc_ValueError, "expected 4 suit masks, 40 units and 40 unit classes");
        return -1;
    }
    for (Py_ssize_t s = 0; s < 4; s++) {
        masks[s] = PyLong_AsUnsignedLongLong(PyTuple_GetItem(suits, s));
        if (PyErr_Occurred()) return -1;
    }
    if (!longs_of(units, 40, unit_of, "units") || !longs_of(classes, 40, class_of, "unit classes")) return -1;
    const char *error = search_setup(&self->search, bonus, follow, masks, unit_of, class_of, bits);
    if (error) {
        PyErr_SetString(PyExc_ValueError, error);
        return -1;
    }
    PyObject *old_clock = self->clock, *old_exc = self->exc;
    Py_INCREF(clock);
    Py_INCREF(exc);
    self->clock = clock;
    self->exc = exc;
    Py_XDECREF(old_clock);
    Py_XDECREF(old_exc);
    self->search.clock = call_clock;
    self->search.clock_data = clock;
    return 0;
}

static void Core_dealloc(Core *self) {
    PyTypeObject *type = Py_TYPE(self);
    search_release(&self->search);
    Py_XDECREF(self->clock);
    Py_XDECREF(self->exc);
    freefunc free_self = (freefunc)PyType_GetSlot(type, Py_tp_free);
    free_self(self);
    Py_DECREF(type);
}

/* The search is set up (Core.__init__ ran and succeeded); else a RuntimeError. */
static int ready(Core *self) {
    if (self->clock) return 1;
    PyErr_SetString(PyExc_RuntimeError, "the compiled search is not set up (Core.__init__ failed or was not called)");
    return 0;
}

static PyObject *Core_probe(Core *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "probe(h0, h1, h2, lead, rest, t)");
        return NULL;
    }
    if (!ready(self)) return NULL;
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
    int v = search_probe(&self->search, h[0], h[1], h[2], (int)lead, (int)rest, (int)t);
    if (v == SEARCH_NO_MEMORY) return PyErr_NoMemory();
    if (v == SEARCH_ABORT) {
        if (!PyErr_Occurred()) {
            PyObject *count = PyLong_FromLongLong(self->search.nodes);
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
    search_release(&self->search);
    Py_RETURN_NONE;
}

static PyObject *Core_get_nodes(Core *self, void *Py_UNUSED(closure)) {
    return PyLong_FromLongLong(self->search.nodes);
}

static PyObject *Core_get_limit(Core *self, void *Py_UNUSED(closure)) {
    return PyLong_FromLongLong(self->search.limit);
}

static int Core_set_limit(Core *self, PyObject *value, void *Py_UNUSED(closure)) {
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete limit");
        return -1;
    }
    long long v = PyLong_AsLongLong(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    self->search.limit = v;
    return 0;
}

static PyObject *Core_get_deadline(Core *self, void *Py_UNUSED(closure)) {
    return PyFloat_FromDouble(self->search.deadline);
}

static int Core_set_deadline(Core *self, PyObject *value, void *Py_UNUSED(closure)) {
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete deadline");
        return -1;
    }
    double d = PyFloat_AsDouble(value);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    self->search.deadline = d;
    return 0;
}

static PyMethodDef Core_methods[] = {
    {"probe", (PyCFunction)(void (*)(void))Core_probe, METH_FASTCALL,
     "probe(h0, h1, h2, lead, rest, t): a fail-soft bound around t of the declarer's units."},
    {"release", (PyCFunction)(void (*)(void))Core_release, METH_NOARGS,
     "Free the transposition table and the suits' memo."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Core_getset[] = {
    {"nodes", (getter)(void (*)(void))Core_get_nodes, NULL, "Positions searched.", NULL},
    {"limit", (getter)(void (*)(void))Core_get_limit, (setter)(void (*)(void))Core_set_limit,
     "Node limit (-1: none).", NULL},
    {"deadline", (getter)(void (*)(void))Core_get_deadline, (setter)(void (*)(void))Core_set_deadline,
     "Clock deadline (0.0: none).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot Core_slots[] = {
    {Py_tp_doc, (void *)"The compiled search of one solve."},
    {Py_tp_new, (void *)PyType_GenericNew},
    {Py_tp_init, (void *)Core_init},
    {Py_tp_dealloc, (void *)Core_dealloc},
    {Py_tp_methods, Core_methods},
    {Py_tp_getset, Core_getset},
    {0, NULL},
};

static PyType_Spec Core_spec = {
    "calabrasella.bots._solver_native.Core", sizeof(Core), 0, Py_TPFLAGS_DEFAULT, Core_slots,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_solver_native", "The solver's compiled search.", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__solver_native(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyObject *type = PyType_FromSpec(&Core_spec);
    if (!type || PyModule_AddObject(m, "Core", type) < 0) {
        Py_XDECREF(type);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
