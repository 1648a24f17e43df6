CREATE TABLE "user_model_prices" (
	"user_id" uuid NOT NULL,
	"model" text NOT NULL,
	"input_usd_per_million" double precision NOT NULL,
	"output_usd_per_million" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_model_prices_user_id_model_pk" PRIMARY KEY("user_id","model")
);
--> statement-breakpoint
ALTER TABLE "user_model_prices" ADD CONSTRAINT "user_model_prices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;