CREATE TABLE "audience_sizes" (
	"workspace_id" text NOT NULL,
	"audience_id" text NOT NULL,
	"day" date NOT NULL,
	"size" integer,
	"profiles" integer NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "audience_sizes_workspace_id_audience_id_day_pk" PRIMARY KEY("workspace_id","audience_id","day")
);
--> statement-breakpoint
ALTER TABLE "audience_sizes" ADD CONSTRAINT "audience_sizes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audience_sizes_day_idx" ON "audience_sizes" USING btree ("workspace_id","day");--> statement-breakpoint
CREATE INDEX "item_versions_recent_idx" ON "item_versions" USING btree ("workspace_id","at","schema","by");--> statement-breakpoint
CREATE INDEX "items_schema_approvals_idx" ON "items" USING btree ("workspace_id","schema","approved_roles");--> statement-breakpoint
CREATE INDEX "published_recent_idx" ON "published" USING btree ("workspace_id","published_at","schema");