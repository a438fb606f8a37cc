ALTER TABLE "items" ADD COLUMN "search_text" text;--> statement-breakpoint
CREATE INDEX "items_search_idx" ON "items" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "items_search_pending_idx" ON "items" USING btree ("workspace_id","schema") WHERE "items"."search_text" is null;