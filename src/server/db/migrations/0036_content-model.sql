CREATE TABLE "content_model_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"base_version" integer NOT NULL,
	"version" integer NOT NULL,
	"ops" jsonb NOT NULL,
	"inverse" jsonb NOT NULL,
	"reverts" text,
	"by_id" text NOT NULL,
	"by_name" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" text NOT NULL,
	"items_total" integer DEFAULT 0 NOT NULL,
	"items_done" integer DEFAULT 0 NOT NULL,
	"transformed" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_model_kept" (
	"change_id" text NOT NULL,
	"schema" text NOT NULL,
	"item_id" text NOT NULL,
	"kept" jsonb NOT NULL,
	CONSTRAINT "content_model_kept_change_id_schema_item_id_pk" PRIMARY KEY("change_id","schema","item_id")
);
--> statement-breakpoint
CREATE TABLE "content_models" (
	"workspace_id" text NOT NULL,
	"version" integer NOT NULL,
	"doc" jsonb NOT NULL,
	"renamed" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_models_workspace_id_version_pk" PRIMARY KEY("workspace_id","version")
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "model_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "content_model_changes" ADD CONSTRAINT "content_model_changes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_model_kept" ADD CONSTRAINT "content_model_kept_change_id_content_model_changes_id_fk" FOREIGN KEY ("change_id") REFERENCES "public"."content_model_changes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_models" ADD CONSTRAINT "content_models_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_model_changes_workspace_idx" ON "content_model_changes" USING btree ("workspace_id","version");