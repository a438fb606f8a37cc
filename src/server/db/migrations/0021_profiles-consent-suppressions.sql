CREATE TABLE "customer_suppressions" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"profile_id" text,
	"email" text,
	"reason" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"created_by_name" text,
	CONSTRAINT "customer_suppressions_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "customer_profiles" ADD COLUMN "email_consent" text DEFAULT 'unknown' NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_profiles" ADD COLUMN "email_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_profiles" ADD COLUMN "email_consent_source" text;--> statement-breakpoint
ALTER TABLE "customer_suppressions" ADD CONSTRAINT "customer_suppressions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_suppressions_profile_key" ON "customer_suppressions" USING btree ("workspace_id","profile_id") WHERE "customer_suppressions"."profile_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_suppressions_email_key" ON "customer_suppressions" USING btree ("workspace_id","email") WHERE "customer_suppressions"."email" is not null;--> statement-breakpoint
CREATE INDEX "customer_suppressions_recent_idx" ON "customer_suppressions" USING btree ("workspace_id","created_at");--> statement-breakpoint
-- By hand: an entry names a profile id, an email address or both.
ALTER TABLE "customer_suppressions" ADD CONSTRAINT "customer_suppressions_target_check" CHECK ("profile_id" is not null or "email" is not null);--> statement-breakpoint
-- By hand: profile search. Trigrams of the lowercased id and string attribute values, so a search for any
-- part of an id, an email address or a name is an index scan at any number of profiles. The expression
-- is repeated word for word by `PROFILE_SEARCH_TEXT` in customers/profiles-repository.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "customer_profiles_search_idx" ON "customer_profiles" USING gin ((lower("id" || ' ' || coalesce(jsonb_path_query_array("attributes", 'strict $.* ? (@.type() == "string")')::text, ''))) gin_trgm_ops);
