-- AlterTable
ALTER TABLE "users" ADD COLUMN     "props_sources" JSONB NOT NULL DEFAULT '{}';
