CREATE TABLE "batch_errors" (
	"workspace_id" text NOT NULL,
	"batch_id" text NOT NULL,
	"message" text NOT NULL,
	"first_line" integer NOT NULL,
	"lines" integer[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batch_errors" ADD CONSTRAINT "batch_errors_workspace_id_batch_id_batches_workspace_id_id_fk" FOREIGN KEY ("workspace_id","batch_id") REFERENCES "public"."batches"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batch_errors_batch_idx" ON "batch_errors" USING btree ("workspace_id","batch_id","message");--> statement-breakpoint
-- Batches that ended before: done with some rows failed is 'done with errors', with none written 'failed'.
UPDATE "batches" SET "state" = CASE WHEN "done" = 0 THEN 'failed' ELSE 'done with errors' END
WHERE "state" = 'done' AND "failed" > 0;--> statement-breakpoint
-- The row errors they kept (the first 100) become their grouped errors.
INSERT INTO "batch_errors" ("workspace_id", "batch_id", "message", "first_line", "lines")
SELECT b."workspace_id", b."id", e->>'message', (e->>'line')::integer, ARRAY[(e->>'line')::integer]
FROM "batches" b, jsonb_array_elements(b."errors") AS e;
