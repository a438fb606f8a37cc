ALTER TABLE "item_versions" ADD COLUMN "model_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "model_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "published" ADD COLUMN "model_version" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Until now a model change converted every row in its own transaction: every row is in its workspace's current model.
UPDATE "items" i SET "model_version" = w."model_version" FROM "workspaces" w WHERE w."id" = i."workspace_id" AND w."model_version" <> 0;--> statement-breakpoint
UPDATE "item_versions" v SET "model_version" = w."model_version" FROM "workspaces" w WHERE w."id" = v."workspace_id" AND w."model_version" <> 0;--> statement-breakpoint
UPDATE "published" p SET "model_version" = w."model_version" FROM "workspaces" w WHERE w."id" = p."workspace_id" AND w."model_version" <> 0;
