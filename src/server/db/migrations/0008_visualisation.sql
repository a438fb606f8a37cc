CREATE TABLE "visualisation_results" (
	"workspace_id" text NOT NULL,
	"key" text NOT NULL,
	"result" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"fetched_by" text NOT NULL,
	CONSTRAINT "visualisation_results_workspace_id_key_pk" PRIMARY KEY("workspace_id","key")
);
--> statement-breakpoint
ALTER TABLE "visualisation_results" ADD CONSTRAINT "visualisation_results_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;