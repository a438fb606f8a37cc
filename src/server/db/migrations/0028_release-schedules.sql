ALTER TABLE "api_keys" ADD COLUMN "preview" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "schedule_status" text;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "scheduled_by" text;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "ran_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "releases_due_idx" ON "releases" USING btree ("publish_at") WHERE "releases"."schedule_status" in ('pending', 'running');