ALTER TABLE "campaign_sends" ADD COLUMN "everyone" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "already_received" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "unconfirmed" integer DEFAULT 0 NOT NULL;