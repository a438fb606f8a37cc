CREATE TABLE "approvals" (
	"workspace_id" text NOT NULL,
	"schema" text NOT NULL,
	"item_id" text NOT NULL,
	"version" integer NOT NULL,
	"role_id" text NOT NULL,
	"role_label" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"by_id" text NOT NULL,
	"by_name" text NOT NULL,
	"comment" text,
	CONSTRAINT "approvals_workspace_id_schema_item_id_version_role_id_pk" PRIMARY KEY("workspace_id","schema","item_id","version","role_id")
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"workspace_id" text NOT NULL,
	"schema" text NOT NULL,
	"item_id" text NOT NULL,
	"id" bigserial NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"by" text NOT NULL,
	"by_name" text NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "comments_workspace_id_schema_item_id_id_pk" PRIMARY KEY("workspace_id","schema","item_id","id")
);
--> statement-breakpoint
CREATE TABLE "item_versions" (
	"workspace_id" text NOT NULL,
	"schema" text NOT NULL,
	"item_id" text NOT NULL,
	"num" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"by" text NOT NULL,
	"data" jsonb NOT NULL,
	"refs" jsonb NOT NULL,
	CONSTRAINT "item_versions_workspace_id_schema_item_id_num_pk" PRIMARY KEY("workspace_id","schema","item_id","num")
);
--> statement-breakpoint
CREATE TABLE "items" (
	"workspace_id" text NOT NULL,
	"schema" text NOT NULL,
	"id" text NOT NULL,
	"data" jsonb NOT NULL,
	"refs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer NOT NULL,
	"last_written_by" text NOT NULL,
	"last_written_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"has_errors" boolean DEFAULT false NOT NULL,
	"variation" jsonb,
	"approved_roles" text[] DEFAULT '{}'::text[] NOT NULL,
	CONSTRAINT "items_workspace_id_schema_id_pk" PRIMARY KEY("workspace_id","schema","id")
);
--> statement-breakpoint
CREATE TABLE "published" (
	"workspace_id" text NOT NULL,
	"schema" text NOT NULL,
	"id" text NOT NULL,
	"stage" text NOT NULL,
	"version" integer NOT NULL,
	"item_version" integer NOT NULL,
	"data" jsonb NOT NULL,
	"refs" jsonb NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"published_by" text NOT NULL,
	CONSTRAINT "published_workspace_id_schema_id_stage_pk" PRIMARY KEY("workspace_id","schema","id","stage")
);
--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_versions" ADD CONSTRAINT "item_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "published" ADD CONSTRAINT "published_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "items_schema_recent_idx" ON "items" USING btree ("workspace_id","schema","last_written_at","id");--> statement-breakpoint
CREATE INDEX "items_recent_idx" ON "items" USING btree ("workspace_id","last_written_at","id");--> statement-breakpoint
CREATE INDEX "items_writer_recent_idx" ON "items" USING btree ("workspace_id","last_written_by","last_written_at","id");--> statement-breakpoint
CREATE INDEX "published_stage_recent_idx" ON "published" USING btree ("workspace_id","stage","published_at","id");--> statement-breakpoint
CREATE INDEX "published_outdated_idx" ON "published" USING btree ("workspace_id","stage","published_at","id") WHERE "published"."version" < "published"."item_version";