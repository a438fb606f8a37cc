CREATE TABLE "test_sends" (
	"workspace_id" text NOT NULL,
	"id" bigserial NOT NULL,
	"item_id" text,
	"provider" text NOT NULL,
	"recipients" jsonb NOT NULL,
	"subject" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"by" text NOT NULL,
	"by_name" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	CONSTRAINT "test_sends_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "test_sends" ADD CONSTRAINT "test_sends_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "test_sends_at" ON "test_sends" USING btree ("workspace_id","at");--> statement-breakpoint
CREATE INDEX "test_sends_item" ON "test_sends" USING btree ("workspace_id","item_id","at");