CREATE TABLE "campaign_experiments" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"campaign_version" integer NOT NULL,
	"settings" jsonb NOT NULL,
	"state" text DEFAULT 'testing' NOT NULL,
	"tested_at" timestamp with time zone,
	"decide_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"winner" text,
	"reason" text,
	"winner_send_id" text,
	"holdout" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_experiments_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "campaign_holdouts" (
	"workspace_id" text NOT NULL,
	"experiment_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"email" text NOT NULL,
	CONSTRAINT "campaign_holdouts_workspace_id_experiment_id_profile_id_pk" PRIMARY KEY("workspace_id","experiment_id","profile_id")
);
--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "experiment_id" text;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "variant" text;--> statement-breakpoint
ALTER TABLE "campaign_experiments" ADD CONSTRAINT "campaign_experiments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_experiments_due_idx" ON "campaign_experiments" USING btree ("decide_at") WHERE "campaign_experiments"."state" = 'testing';--> statement-breakpoint
CREATE INDEX "campaign_holdouts_profile_idx" ON "campaign_holdouts" USING btree ("workspace_id","profile_id");