ALTER TABLE "sending_settings" ALTER COLUMN "postal_address" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "duplicates" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sending_settings" ADD COLUMN "email_attribute" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "sending_settings" ADD COLUMN "mail_unknown_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Workspaces that exist already keep sending to profiles whose consent is unknown, as they did.
INSERT INTO "sending_settings" ("workspace_id", "postal_address", "updated_at", "updated_by", "mail_unknown_consent")
SELECT "id", '', now(), "created_by", true FROM "workspaces"
ON CONFLICT ("workspace_id") DO UPDATE SET "mail_unknown_consent" = true;
