ALTER TABLE "documents" ADD COLUMN "provenance" jsonb;--> statement-breakpoint
ALTER TABLE "agent_sessions" ADD COLUMN "provenance" jsonb;