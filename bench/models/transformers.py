"""BERT-base encoder and a GPT-2-small decoder step, written twice: in plain
JAX (exported to StableHLO for shloc and XLA) and in PyTorch (run by
PyTorch and, exported with torch.onnx, by ONNX Runtime), with the same
random weights loaded into both.

Weights are a flat list of numpy arrays in a fixed order (per layer:
Wq bq Wk bk Wv bv Wo bo ln1_g ln1_b W1 b1 W2 b2 ln2_g ln2_b; matrices are
[in, out], y = x @ W + b), so "weights as arguments" exports take them as
@main's first arguments in that order.
"""
import numpy as np

HIDDEN, HEADS, FFN, LAYERS = 768, 12, 3072, 12
HEAD_DIM = HIDDEN // HEADS
VOCAB = 50257  # GPT-2's vocabulary: the tied LM head is a 50257 x 768 matrix
LN_EPS = 1e-12  # BERT's; GPT-2 uses 1e-5
GPT2_LN_EPS = 1e-5
LAYER_SHAPES = [(HIDDEN, HIDDEN), (HIDDEN,)] * 4 + [(HIDDEN,), (HIDDEN,), (HIDDEN, FFN), (FFN,),
                                                     (FFN, HIDDEN), (HIDDEN,), (HIDDEN,), (HIDDEN,)]


def layer_weights(rng):
    """One layer's weights: N(0, 0.02) matrices (BERT's initializer), small
    biases, layernorm gains near 1."""
    out = []
    for i, s in enumerate(LAYER_SHAPES):
        if len(s) == 2:
            out.append(rng.normal(0, 0.02, s).astype(np.float32))
        elif i in (8, 14):  # layernorm gains
            out.append((1 + rng.normal(0, 0.05, s)).astype(np.float32))
        else:
            out.append(rng.normal(0, 0.02, s).astype(np.float32))
    return out


def bert_weights(seed=7):
    rng = np.random.default_rng(seed)
    return [w for _ in range(LAYERS) for w in layer_weights(rng)]


def gpt2_weights(seed=11):
    """The 12 layers, the final layernorm, then the tied embedding (LM head)."""
    rng = np.random.default_rng(seed)
    w = [w for _ in range(LAYERS) for w in layer_weights(rng)]
    w.append((1 + rng.normal(0, 0.05, (HIDDEN,))).astype(np.float32))
    w.append(rng.normal(0, 0.02, (HIDDEN,)).astype(np.float32))
    w.append(rng.normal(0, 0.02, (VOCAB, HIDDEN)).astype(np.float32))
    return w


def layers_of(weights):
    n = len(LAYER_SHAPES)
    return [weights[i * n:(i + 1) * n] for i in range(LAYERS)]


# ---------------------------------------------------------------------------
# JAX


def jax_layernorm(jnp, x, g, b, eps):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    d = x - mu  # not jnp.square: it exports as chlo.square, which shloc lacks (tests/oracle/found)
    var = jnp.mean(d * d, axis=-1, keepdims=True)
    return (x - mu) / jnp.sqrt(var + eps) * g + b


def jax_bert(weights, x):
    """BERT-base encoder (post-layernorm, exact erf GELU), x: [B, T, 768]."""
    import jax
    import jax.numpy as jnp
    b, t, _ = x.shape
    for wq, bq, wk, bk, wv, bv, wo, bo, g1, b1, w1, c1, w2, c2, g2, b2 in layers_of(weights):
        def heads(y):
            return y.reshape(b, t, HEADS, HEAD_DIM).transpose(0, 2, 1, 3)
        q, k, v = heads(x @ wq + bq), heads(x @ wk + bk), heads(x @ wv + bv)
        p = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(HEAD_DIM)), axis=-1)
        ctx = (p @ v).transpose(0, 2, 1, 3).reshape(b, t, HIDDEN)
        x = jax_layernorm(jnp, x + ctx @ wo + bo, g1, b1, LN_EPS)
        h = jax.nn.gelu(x @ w1 + c1, approximate=False)
        x = jax_layernorm(jnp, x + h @ w2 + c2, g2, b2, LN_EPS)
    return x


def jax_gpt2_step(weights, x, k_cache, v_cache):
    """One decoding step of a GPT-2-small-style decoder (pre-layernorm, tanh
    GELU, tied LM head): x [1, 768] is the new token's embedding, caches
    [12, 12, 128, 64] hold keys/values of the 128 previous positions; the new
    token attends to those and to itself. Returns the logits [1, 50257] and
    the new token's keys and values [12, 2, 12, 64]."""
    import jax
    import jax.numpy as jnp
    new_kv = []
    for i, (wq, bq, wk, bk, wv, bv, wo, bo, g1, b1, w1, c1, w2, c2, g2, b2) in \
            enumerate(layers_of(weights[:-3])):
        h = jax_layernorm(jnp, x, g1, b1, GPT2_LN_EPS)
        q = (h @ wq + bq).reshape(HEADS, 1, HEAD_DIM)
        k = (h @ wk + bk).reshape(HEADS, 1, HEAD_DIM)
        v = (h @ wv + bv).reshape(HEADS, 1, HEAD_DIM)
        keys = jnp.concatenate([k_cache[i], k], axis=1)
        vals = jnp.concatenate([v_cache[i], v], axis=1)
        p = jax.nn.softmax(q @ keys.transpose(0, 2, 1) / np.float32(np.sqrt(HEAD_DIM)), axis=-1)
        x = x + (p @ vals).reshape(1, HIDDEN) @ wo + bo
        h = jax_layernorm(jnp, x, g2, b2, GPT2_LN_EPS)
        x = x + jax.nn.gelu(h @ w1 + c1, approximate=True) @ w2 + c2
        new_kv.append(jnp.stack([k[:, 0, :], v[:, 0, :]]))
    gf, bf, wte = weights[-3:]
    logits = jax_layernorm(jnp, x, gf, bf, GPT2_LN_EPS) @ wte.T
    return logits, jnp.stack(new_kv)


def export_text(fn, example_args):
    """StableHLO text of jax.jit(fn) at the example arguments' shapes."""
    import jax
    return jax.jit(fn).lower(*example_args).as_text()


# ---------------------------------------------------------------------------
# PyTorch (the same math, the same weights)


def torch_modules():
    import torch
    from torch import nn

    def linear(w, b):
        lin = nn.Linear(w.shape[0], w.shape[1])
        lin.weight.data = torch.from_numpy(np.ascontiguousarray(w.T))
        lin.bias.data = torch.from_numpy(b)
        return lin

    def layernorm(g, b, eps):
        ln = nn.LayerNorm(HIDDEN, eps=eps)
        ln.weight.data = torch.from_numpy(g)
        ln.bias.data = torch.from_numpy(b)
        return ln

    class Layer(nn.Module):
        def __init__(self, w, eps, approximate):
            super().__init__()
            self.q, self.k, self.v, self.o = (linear(w[i], w[i + 1]) for i in (0, 2, 4, 6))
            self.ln1 = layernorm(w[8], w[9], eps)
            self.f1, self.f2 = linear(w[10], w[11]), linear(w[12], w[13])
            self.ln2 = layernorm(w[14], w[15], eps)
            self.gelu = nn.GELU(approximate=approximate)

    class Bert(nn.Module):
        def __init__(self, weights):
            super().__init__()
            self.layers = nn.ModuleList(Layer(w, LN_EPS, "none") for w in layers_of(weights))

        def forward(self, x):
            b, t, _ = x.shape
            for l in self.layers:
                def heads(y):
                    return y.reshape(b, t, HEADS, HEAD_DIM).transpose(1, 2)
                p = torch.softmax(heads(l.q(x)) @ heads(l.k(x)).transpose(2, 3) / HEAD_DIM ** 0.5, -1)
                ctx = (p @ heads(l.v(x))).transpose(1, 2).reshape(b, t, HIDDEN)
                x = l.ln1(x + l.o(ctx))
                x = l.ln2(x + l.f2(l.gelu(l.f1(x))))
            return x

    class Gpt2Step(nn.Module):
        def __init__(self, weights):
            super().__init__()
            self.layers = nn.ModuleList(Layer(w, GPT2_LN_EPS, "tanh")
                                        for w in layers_of(weights[:-3]))
            self.lnf = layernorm(weights[-3], weights[-2], GPT2_LN_EPS)
            self.wte = nn.Parameter(torch.from_numpy(weights[-1]))

        def forward(self, x, k_cache, v_cache):
            new_kv = []
            for i, l in enumerate(self.layers):
                h = l.ln1(x)
                q, k, v = (m(h).reshape(HEADS, 1, HEAD_DIM) for m in (l.q, l.k, l.v))
                keys = torch.cat([k_cache[i], k], 1)
                vals = torch.cat([v_cache[i], v], 1)
                p = torch.softmax(q @ keys.transpose(1, 2) / HEAD_DIM ** 0.5, -1)
                x = x + l.o((p @ vals).reshape(1, HIDDEN))
                x = x + l.f2(l.gelu(l.f1(l.ln2(x))))
                new_kv.append(torch.stack([k[:, 0, :], v[:, 0, :]]))
            return self.lnf(x) @ self.wte.T, torch.stack(new_kv)

    return Bert, Gpt2Step
