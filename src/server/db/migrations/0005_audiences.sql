CREATE TABLE "customer_events" (
	"workspace_id" text NOT NULL,
	"id" bigserial NOT NULL,
	"profile_id" text NOT NULL,
	"event" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"properties" jsonb NOT NULL,
	CONSTRAINT "customer_events_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "customer_profiles" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"attributes" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_profiles_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "file_name" text;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "bytes_total" bigint;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "bytes_read" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "errors" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_events" ADD CONSTRAINT "customer_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_profiles" ADD CONSTRAINT "customer_profiles_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_events_event_idx" ON "customer_events" USING btree ("workspace_id","event","at","profile_id");--> statement-breakpoint
CREATE INDEX "customer_events_profile_idx" ON "customer_events" USING btree ("workspace_id","profile_id","at");--> statement-breakpoint
CREATE INDEX "batches_recent_idx" ON "batches" USING btree ("workspace_id","created_at");