-- Edited by hand after drizzle-kit generate (which only dropped the event id): the customer tables become hash-partitioned on the profile id, CUSTOMER_PARTITIONS (4) partitions each, so an audience size runs a partition pair at a time and in parallel (drizzle has no PARTITION BY). The rows are copied over with writes held off (EXCLUSIVE lock: reads go on) until this migration commits.
LOCK TABLE "customer_profiles", "customer_events", "customer_event_counts" IN EXCLUSIVE MODE;--> statement-breakpoint
CREATE TABLE "customer_profiles_next" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"attributes" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_profiles_next_pk" PRIMARY KEY("workspace_id","id")
) PARTITION BY HASH ("id");--> statement-breakpoint
CREATE TABLE "customer_events_next" (
	"workspace_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"event" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"properties" jsonb NOT NULL
) PARTITION BY HASH ("profile_id");--> statement-breakpoint
CREATE TABLE "customer_event_counts_next" (
	"workspace_id" text NOT NULL,
	"event" text NOT NULL,
	"profile_id" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "customer_event_counts_next_pk" PRIMARY KEY("workspace_id","event","profile_id")
) PARTITION BY HASH ("profile_id");--> statement-breakpoint
CREATE TABLE "customer_profiles_p0" PARTITION OF "customer_profiles_next" FOR VALUES WITH (MODULUS 4, REMAINDER 0);--> statement-breakpoint
CREATE TABLE "customer_profiles_p1" PARTITION OF "customer_profiles_next" FOR VALUES WITH (MODULUS 4, REMAINDER 1);--> statement-breakpoint
CREATE TABLE "customer_profiles_p2" PARTITION OF "customer_profiles_next" FOR VALUES WITH (MODULUS 4, REMAINDER 2);--> statement-breakpoint
CREATE TABLE "customer_profiles_p3" PARTITION OF "customer_profiles_next" FOR VALUES WITH (MODULUS 4, REMAINDER 3);--> statement-breakpoint
CREATE TABLE "customer_events_p0" PARTITION OF "customer_events_next" FOR VALUES WITH (MODULUS 4, REMAINDER 0);--> statement-breakpoint
CREATE TABLE "customer_events_p1" PARTITION OF "customer_events_next" FOR VALUES WITH (MODULUS 4, REMAINDER 1);--> statement-breakpoint
CREATE TABLE "customer_events_p2" PARTITION OF "customer_events_next" FOR VALUES WITH (MODULUS 4, REMAINDER 2);--> statement-breakpoint
CREATE TABLE "customer_events_p3" PARTITION OF "customer_events_next" FOR VALUES WITH (MODULUS 4, REMAINDER 3);--> statement-breakpoint
CREATE TABLE "customer_event_counts_p0" PARTITION OF "customer_event_counts_next" FOR VALUES WITH (MODULUS 4, REMAINDER 0);--> statement-breakpoint
CREATE TABLE "customer_event_counts_p1" PARTITION OF "customer_event_counts_next" FOR VALUES WITH (MODULUS 4, REMAINDER 1);--> statement-breakpoint
CREATE TABLE "customer_event_counts_p2" PARTITION OF "customer_event_counts_next" FOR VALUES WITH (MODULUS 4, REMAINDER 2);--> statement-breakpoint
CREATE TABLE "customer_event_counts_p3" PARTITION OF "customer_event_counts_next" FOR VALUES WITH (MODULUS 4, REMAINDER 3);--> statement-breakpoint
INSERT INTO "customer_profiles_next" ("workspace_id", "id", "attributes", "updated_at") SELECT "workspace_id", "id", "attributes", "updated_at" FROM "customer_profiles";--> statement-breakpoint
INSERT INTO "customer_events_next" ("workspace_id", "profile_id", "event", "at", "properties") SELECT "workspace_id", "profile_id", "event", "at", "properties" FROM "customer_events";--> statement-breakpoint
INSERT INTO "customer_event_counts_next" ("workspace_id", "event", "profile_id", "count") SELECT "workspace_id", "event", "profile_id", "count" FROM "customer_event_counts";--> statement-breakpoint
DROP TABLE "customer_profiles";--> statement-breakpoint
ALTER TABLE "customer_profiles_next" RENAME TO "customer_profiles";--> statement-breakpoint
DROP TABLE "customer_events";--> statement-breakpoint
ALTER TABLE "customer_events_next" RENAME TO "customer_events";--> statement-breakpoint
DROP TABLE "customer_event_counts";--> statement-breakpoint
ALTER TABLE "customer_event_counts_next" RENAME TO "customer_event_counts";--> statement-breakpoint
ALTER TABLE "customer_profiles" RENAME CONSTRAINT "customer_profiles_next_pk" TO "customer_profiles_workspace_id_id_pk";--> statement-breakpoint
ALTER TABLE "customer_event_counts" RENAME CONSTRAINT "customer_event_counts_next_pk" TO "customer_event_counts_workspace_id_event_profile_id_pk";--> statement-breakpoint
ALTER TABLE "customer_profiles" ADD CONSTRAINT "customer_profiles_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_events_window_idx" ON "customer_events" USING btree ("workspace_id","event","at","profile_id") INCLUDE ("properties");--> statement-breakpoint
CREATE INDEX "customer_events_event_profile_idx" ON "customer_events" USING btree ("workspace_id","event","profile_id","at");
