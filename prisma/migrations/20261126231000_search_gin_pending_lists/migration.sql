-- Each scan of a GIN index reads its whole pending list (the entries written since the last merge, `fastupdate`)
-- before the index proper. Under writes the three searched GIN indexes carried the default 4 MB of it: a fuzzy
-- users search at 1M users took 10–16 ms with 277 pending pages and 0.3–3.3 ms once they were merged, and every
-- reply and heartbeat adds to the lists. 256 kB bounds that read to ~32 pages; the write that fills a list merges
-- it, 16 times as often and a sixteenth as large.
ALTER INDEX "users_search_trgm_idx" SET (gin_pending_list_limit = 256);
ALTER INDEX "users_filter_trgm_idx" SET (gin_pending_list_limit = 256);
ALTER INDEX "conversation_parts_body_search_idx" SET (gin_pending_list_limit = 256);
