CREATE TABLE "session_watchers" (
	"connection_id" text NOT NULL,
	"session_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "session_watchers_connection_id_session_id_pk" PRIMARY KEY("connection_id","session_id")
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "session_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "session_watchers" ADD CONSTRAINT "session_watchers_session_id_agent_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."agent_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_watchers" ADD CONSTRAINT "session_watchers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_watchers_user_session_idx" ON "session_watchers" USING btree ("user_id","session_id");--> statement-breakpoint
CREATE INDEX "notifications_user_session_idx" ON "notifications" USING btree ("user_id","session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_dedupe_idx" ON "notifications" USING btree ("user_id","dedupe_key");