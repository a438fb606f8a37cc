CREATE TABLE "campaign_rate" (
	"provider" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL
);
