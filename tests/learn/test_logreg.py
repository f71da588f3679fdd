"""The numpy logistic regressions recover known models; the metrics match hand counts.

They are shared by the MDP opponent models and the placement model (tenpai.search).
"""

from __future__ import annotations

import numpy as np
import pytest

from tenpai.learn.logreg import auc, fit_binary, fit_softmax, log_loss


def test_binary_recovers_weights() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(20000, 2))
    p = 1 / (1 + np.exp(-(1.5 * x[:, 0] - 0.8 * x[:, 1] + 0.3)))
    y = (rng.random(20000) < p).astype(float)
    m = fit_binary(x, y, l2=0.0)
    # Standardised weights are w * std; std is ~1 here.
    assert m.weights[0] / m.scale[0] == pytest.approx(1.5, abs=0.08)
    assert m.weights[1] / m.scale[1] == pytest.approx(-0.8, abs=0.08)
    assert m.predict_one([0.5, -0.2]) == pytest.approx(float(m.predict(np.array([0.5, -0.2]))),
                                                       abs=1e-9)


def test_binary_soft_labels_match_mean() -> None:
    x = np.zeros((100, 1))
    y = np.full(100, 0.3)
    m = fit_binary(x, y)
    assert float(m.predict(np.zeros(1))) == pytest.approx(0.3, abs=1e-6)


def test_softmax_learns_classes() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(3000, 1))
    y = np.where(x[:, 0] < -0.5, 0, np.where(x[:, 0] < 0.5, 1, 2))
    m = fit_softmax(x, y, 3, l2=0.01, iters=800)
    assert float(np.mean(m.predict(x).argmax(axis=1) == y)) > 0.9
    assert log_loss(m.predict(x), y) < np.log(3)


def test_softmax_recovers_a_known_softmax() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4000, 2))
    true = np.array([[2.0, 0.0, -1.0, 0.0], [0.0, 1.5, 0.0, 0.0]])
    logits = x @ true
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    y = np.array([rng.choice(4, p=row) for row in p])
    q = fit_softmax(x, y, 4, l2=0.1).predict(x)
    fitted = -np.mean(np.log(q[np.arange(len(y)), y]))
    truth = -np.mean(np.log(p[np.arange(len(y)), y]))
    assert fitted < truth + 0.01


def test_softmax_reaches_the_penalised_optimum_with_the_last_class_as_base() -> None:
    # Newton's answer, not merely a good one: the penalised gradient vanishes there
    rng = np.random.default_rng(5)
    x = rng.normal(size=(1500, 3)) * [1.0, 50.0, 0.01] + [0.0, 300.0, 2.0]
    y = rng.integers(0, 3, size=1500)
    y[x[:, 0] > 1.0] = 2
    l2 = 2.0
    m = fit_softmax(x, y, 3, l2=l2)
    w, b = np.asarray(m.weights), np.asarray(m.bias)
    assert w.shape == (3, 3) and b.shape == (3,)
    assert not w[-1].any() and b[-1] == 0.0
    z = (x - np.asarray(m.mean)) / np.asarray(m.scale)
    onehot = np.eye(3)[y]
    residual = m.predict(x) - onehot
    grad_w = residual.T @ z + l2 * w
    grad_b = residual.sum(axis=0)
    assert np.abs(grad_w[:-1]).max() < 1e-6 and np.abs(grad_b[:-1]).max() < 1e-6


def test_softmax_refuses_mismatched_input() -> None:
    with pytest.raises(ValueError, match="fit_softmax"):
        fit_softmax(np.zeros((3, 2)), np.zeros(4, dtype=int), 2)


def test_auc_by_hand() -> None:
    # Pairs (pos, neg): (0.9 > 0.1), (0.9 > 0.5), (0.4 < 0.5), (0.4 > 0.1): 3 of 4 ordered.
    assert auc(np.array([0.9, 0.4, 0.1, 0.5]), np.array([1, 1, 0, 0])) == pytest.approx(0.75)
    assert auc(np.array([0.5, 0.5]), np.array([1, 0])) == pytest.approx(0.5)
    assert np.isnan(auc(np.array([0.2]), np.array([1])))
