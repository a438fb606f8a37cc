-- Edited by hand after drizzle-kit generate: INCLUDE ("properties") on the window index (drizzle's index builder has no INCLUDE), so look-back rules with a where or a TOTAL read the index alone.
DROP INDEX "customer_events_event_idx";--> statement-breakpoint
DROP INDEX "customer_events_profile_idx";--> statement-breakpoint
CREATE INDEX "customer_events_window_idx" ON "customer_events" USING btree ("workspace_id","event","at","profile_id") INCLUDE ("properties");--> statement-breakpoint
CREATE INDEX "customer_events_event_profile_idx" ON "customer_events" USING btree ("workspace_id","event","profile_id","at");
