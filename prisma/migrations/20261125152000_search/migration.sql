-- Search (lib/search/search.ts), kept by the write path: the body's full-text vector is a column the database
-- generates in the writing statement, with the 'simple' configuration (lower-cased words, no stemming, no stop
-- words: conversations are in any language). Stored rather than an expression index so that a frequent word can be
-- answered by walking the newest parts and testing the stored vector, without re-parsing every body (written by
-- hand: Prisma's schema has no generated columns; it knows the column as Unsupported("tsvector")).
ALTER TABLE "conversation_parts" ADD COLUMN "body_search" tsvector
  GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "body")) STORED;
CREATE INDEX "conversation_parts_body_search_idx" ON "conversation_parts" USING gin ("body_search");

-- Visitors by any part of their name, email, phone or user ID (language-agnostic: trigrams), one GIN index over the
-- four columns, so that an OR of the four is one bitmap per column of the same index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin (
  "name" gin_trgm_ops, "email" gin_trgm_ops, "phone" gin_trgm_ops, "user_id" gin_trgm_ops);
