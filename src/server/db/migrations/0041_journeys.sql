CREATE TABLE "journey_runs" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"journey_id" text NOT NULL,
	"version" integer NOT NULL,
	"profile_id" text NOT NULL,
	"state" text NOT NULL,
	"exit_step" text,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "journey_runs_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "journey_starts" (
	"workspace_id" text NOT NULL,
	"journey_id" text NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"state" text NOT NULL,
	"event_keys" text[] NOT NULL,
	"sends" jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_by" text NOT NULL,
	"stopped_at" timestamp with time zone,
	CONSTRAINT "journey_starts_workspace_id_journey_id_version_pk" PRIMARY KEY("workspace_id","journey_id","version")
);
--> statement-breakpoint
CREATE TABLE "journey_tasks" (
	"workspace_id" text NOT NULL,
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"journey_id" text NOT NULL,
	"version" integer NOT NULL,
	"profile_id" text NOT NULL,
	"step_id" text NOT NULL,
	"state" text DEFAULT 'due' NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"waits_for" text,
	"exit" text,
	"ended" text,
	"lease_until" timestamp with time zone,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "journey_tasks_workspace_id_run_id_seq_pk" PRIMARY KEY("workspace_id","run_id","seq")
);
--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "journey_id" text;--> statement-breakpoint
ALTER TABLE "journey_starts" ADD CONSTRAINT "journey_starts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "journey_runs_active_idx" ON "journey_runs" USING btree ("workspace_id","journey_id","profile_id") WHERE "journey_runs"."state" = 'active';--> statement-breakpoint
CREATE INDEX "journey_runs_profile_idx" ON "journey_runs" USING btree ("workspace_id","profile_id","journey_id","entered_at");--> statement-breakpoint
CREATE INDEX "journey_starts_live_idx" ON "journey_starts" USING btree ("workspace_id") WHERE "journey_starts"."state" <> 'stopped';--> statement-breakpoint
CREATE INDEX "journey_tasks_due_idx" ON "journey_tasks" USING btree ("due_at") WHERE "journey_tasks"."state" = 'due';--> statement-breakpoint
CREATE INDEX "journey_tasks_waiting_idx" ON "journey_tasks" USING btree ("workspace_id","profile_id") WHERE "journey_tasks"."state" = 'due';--> statement-breakpoint
CREATE INDEX "journey_tasks_step_idx" ON "journey_tasks" USING btree ("workspace_id","journey_id","version","step_id");