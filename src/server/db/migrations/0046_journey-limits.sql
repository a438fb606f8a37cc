CREATE TABLE "journey_audience_members" (
	"workspace_id" text NOT NULL,
	"journey_id" text NOT NULL,
	"version" integer NOT NULL,
	"profile_id" text NOT NULL,
	CONSTRAINT "journey_audience_members_workspace_id_journey_id_version_profile_id_pk" PRIMARY KEY("workspace_id","journey_id","version","profile_id")
);
--> statement-breakpoint
CREATE TABLE "journey_limits" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"per_day" integer,
	"per_week" integer,
	"quiet_start" integer,
	"quiet_end" integer,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"webhook_secret" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journey_occurrences" (
	"workspace_id" text NOT NULL,
	"journey_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "journey_occurrences_workspace_id_journey_id_profile_id_at_pk" PRIMARY KEY("workspace_id","journey_id","profile_id","at")
);
--> statement-breakpoint
ALTER TABLE "journey_starts" ADD COLUMN "pause_limit" jsonb;--> statement-breakpoint
ALTER TABLE "journey_starts" ADD COLUMN "resumed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "journey_tasks" ADD COLUMN "tries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "journey_tasks" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "journey_tasks" ADD COLUMN "emailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "journey_limits" ADD CONSTRAINT "journey_limits_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "journey_tasks_emailed_idx" ON "journey_tasks" USING btree ("workspace_id","profile_id","emailed_at") WHERE "journey_tasks"."emailed_at" is not null;