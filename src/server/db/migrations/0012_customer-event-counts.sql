-- Edited by hand after drizzle-kit generate: the rollup is filled from the events already stored, with event inserts held off (SHARE lock) until this migration commits so that none written meanwhile is missed.
CREATE TABLE "customer_event_counts" (
	"workspace_id" text NOT NULL,
	"event" text NOT NULL,
	"profile_id" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "customer_event_counts_workspace_id_event_profile_id_pk" PRIMARY KEY("workspace_id","event","profile_id")
);
--> statement-breakpoint
LOCK TABLE "customer_events" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "customer_event_counts" ("workspace_id", "event", "profile_id", "count")
SELECT "workspace_id", "event", "profile_id", count(*) FROM "customer_events" GROUP BY "workspace_id", "event", "profile_id";
