CREATE TABLE "customer_undeclared" (
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"event" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"count" bigint NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"examples" text[],
	CONSTRAINT "customer_undeclared_workspace_id_kind_event_name_type_pk" PRIMARY KEY("workspace_id","kind","event","name","type")
);
--> statement-breakpoint
ALTER TABLE "write_keys" ADD COLUMN "strict" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_undeclared" ADD CONSTRAINT "customer_undeclared_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;