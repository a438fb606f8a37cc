CREATE TABLE "published_slugs" (
	"workspace_id" text NOT NULL,
	"stage" text NOT NULL,
	"schema" text NOT NULL,
	"slug" text NOT NULL,
	"id" text NOT NULL,
	"first_published_at" timestamp with time zone NOT NULL,
	CONSTRAINT "published_slugs_workspace_id_stage_schema_slug_id_pk" PRIMARY KEY("workspace_id","stage","schema","slug","id")
);
--> statement-breakpoint
ALTER TABLE "published" ADD COLUMN "slug" text;--> statement-breakpoint
ALTER TABLE "published" ADD COLUMN "previous_slugs" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "published_slugs" ADD CONSTRAINT "published_slugs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "published_slugs_item_idx" ON "published_slugs" USING btree ("workspace_id","schema","id");--> statement-breakpoint
CREATE INDEX "published_delivery_idx" ON "published" USING btree ("workspace_id","stage","schema","published_at","id");--> statement-breakpoint
CREATE INDEX "published_slug_idx" ON "published" USING btree ("workspace_id","stage","schema","slug");--> statement-breakpoint
UPDATE "published" SET "slug" = CASE "schema" WHEN 'blog-post' THEN "data"->>'slug' ELSE "data"->>'key' END
  WHERE "schema" IN ('blog-post', 'customer-profile-attribute', 'behavioral-event');--> statement-breakpoint
INSERT INTO "published_slugs" ("workspace_id", "stage", "schema", "slug", "id", "first_published_at")
  SELECT "workspace_id", "stage", "schema", "slug", "id", "published_at" FROM "published" WHERE "slug" IS NOT NULL
  ON CONFLICT DO NOTHING;
