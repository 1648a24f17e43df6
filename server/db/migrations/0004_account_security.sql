CREATE TABLE "used_tokens" (
	"jti" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "token_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "datasets" ADD COLUMN "size_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "datasets" SET "size_bytes" = octet_length("name") + octet_length("description") + octet_length("fields"::text) + octet_length("metadata"::text) + coalesce(octet_length("origin_details"::text), 0);
