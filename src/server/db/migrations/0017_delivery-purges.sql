CREATE TABLE "delivery_purges" (
	"workspace_id" text NOT NULL,
	"id" text DEFAULT gen_random_uuid()::text NOT NULL,
	"keys" text[] NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_purges_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE INDEX "delivery_purges_due_idx" ON "delivery_purges" USING btree ("next_at") WHERE "delivery_purges"."status" = 'pending';