"""Three small RAG apps built with the real frameworks (langchain-core, llama-index-core, haystack-ai), over
run_fixtures.DOCS, with their in-memory stores: no network, no model. Their "LLM" is a stand-in that answers
with the first sentence of the best passage; retrieval is real (a bag-of-words embedding, or Haystack's BM25).
No ``from __future__ import annotations``: Haystack reads the components' annotations as types."""


import math
import re
from typing import Any

from run_fixtures import DOCS

DIM = 256


def bag_of_words(text: str) -> list[float]:
    """A deterministic embedding: hashed word counts, unit length (stable across processes: no hash())."""
    vec = [0.0] * DIM
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        vec[sum(ord(c) * 31 ** i for i, c in enumerate(word)) % DIM] += 1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


def first_sentence(text: str) -> str:
    return re.split(r"(?<=\.)\s", text.strip())[0]


def langchain_chain() -> Any:
    from langchain_core.documents import Document
    from langchain_core.embeddings import Embeddings
    from langchain_core.runnables import RunnableLambda, RunnablePassthrough
    from langchain_core.vectorstores import InMemoryVectorStore

    class BagOfWords(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [bag_of_words(t) for t in texts]

        def embed_query(self, text: str) -> list[float]:
            return bag_of_words(text)

    store = InMemoryVectorStore(BagOfWords())
    store.add_documents([Document(id=key, page_content=text, metadata={"source": f"{key}.md"})
                         for key, text in DOCS.items()])
    retriever = store.as_retriever(search_kwargs={"k": 2})
    answer = RunnableLambda(lambda d: first_sentence(d["context"][0].page_content))
    return {"context": retriever, "input": RunnablePassthrough()} | RunnablePassthrough.assign(answer=answer)


def llamaindex_engine() -> Any:
    from llama_index.core import VectorStoreIndex
    from llama_index.core.base.embeddings.base import BaseEmbedding
    from llama_index.core.llms import CompletionResponse, CustomLLM, LLMMetadata
    from llama_index.core.schema import TextNode

    class BagOfWords(BaseEmbedding):
        def _get_query_embedding(self, query: str) -> list[float]:
            return bag_of_words(query)

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return bag_of_words(query)

        def _get_text_embedding(self, text: str) -> list[float]:
            return bag_of_words(text)

    class FirstSentenceLLM(CustomLLM):
        """Answers with the first sentence of the passage that comes first in the prompt."""

        @property
        def metadata(self) -> LLMMetadata:
            return LLMMetadata()

        def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
            found = sorted((prompt.find(text), text) for text in DOCS.values() if text in prompt)
            return CompletionResponse(text=first_sentence(found[0][1]) if found else "")

        def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> Any:
            yield self.complete(prompt)

    nodes = [TextNode(id_=key, text=text, metadata={"source": f"{key}.md"}) for key, text in DOCS.items()]
    index = VectorStoreIndex(nodes=nodes, embed_model=BagOfWords())
    return index.as_query_engine(llm=FirstSentenceLLM(), similarity_top_k=2)


def haystack_pipeline() -> Any:
    from haystack import Document, Pipeline, component
    from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
    from haystack.document_stores.in_memory import InMemoryDocumentStore

    @component
    class FirstSentence:
        @component.output_types(replies=list[str])
        def run(self, documents: list[Document]) -> dict[str, list[str]]:
            return {"replies": [first_sentence(documents[0].content or "") if documents else ""]}

    store = InMemoryDocumentStore()
    store.write_documents([Document(id=key, content=text, meta={"source": f"{key}.md"})
                           for key, text in DOCS.items()])
    pipeline = Pipeline()
    pipeline.add_component("retriever", InMemoryBM25Retriever(store, top_k=2))
    pipeline.add_component("llm", FirstSentence())
    pipeline.connect("retriever.documents", "llm.documents")
    return pipeline


chain = langchain_chain()
engine = llamaindex_engine()
pipeline = haystack_pipeline()
