/** A note found by meaning, with its cosine similarity (-1 to 1). */
export interface VectorHit {
  path: string;
  score: number;
}

/**
 * What the note index asks of the embeddings, when they are on: notes close in meaning to a query
 * (the query embedded by the same model) or to a note. Null when there is nothing to ask (off, not
 * embedded yet, or the server could not embed the query): the index then answers by words alone.
 */
export interface VectorSide {
  search(query: string, limit: number, accept: (path: string) => boolean, signal?: AbortSignal): Promise<VectorHit[] | null>;
  similarToNote(path: string, limit: number, accept: (path: string) => boolean): VectorHit[] | null;
}
