CREATE TABLE "release_entries" (
	"workspace_id" text NOT NULL,
	"release_id" text NOT NULL,
	"item_id" text NOT NULL,
	"schema" text NOT NULL,
	"version" integer,
	"action" text DEFAULT 'publish' NOT NULL,
	"previous_version" integer,
	"published_version" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_entries_workspace_id_release_id_schema_item_id_pk" PRIMARY KEY("workspace_id","release_id","schema","item_id")
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"stage" text NOT NULL,
	"publish_at" timestamp with time zone,
	"publish_at_tz" text,
	"state" text DEFAULT 'draft' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	"published_at" timestamp with time zone,
	"published_by" text,
	CONSTRAINT "releases_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "release_entries" ADD CONSTRAINT "release_entries_workspace_id_release_id_releases_workspace_id_id_fk" FOREIGN KEY ("workspace_id","release_id") REFERENCES "public"."releases"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "releases_recent_idx" ON "releases" USING btree ("workspace_id","updated_at","id");