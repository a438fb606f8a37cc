ALTER TABLE "release_entries" ADD COLUMN "added_by" text;--> statement-breakpoint
ALTER TABLE "release_entries" ADD COLUMN "added_by_name" text;