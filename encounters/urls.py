from django.urls import path

from encounters import condition_views, player_views, views

app_name = "encounters"

urlpatterns = [
    path("", views.encounter_list, name="list"),
    path("import/", views.encounter_import, name="import"),
    path("<int:pk>/", views.encounter_detail, name="detail"),
    path("<int:pk>/act/", views.encounter_act, name="act"),
    path("<int:pk>/apply/", views.encounter_apply, name="apply"),
    path("<int:pk>/advance/", views.encounter_advance, name="advance"),
    path("<int:pk>/undo/", views.encounter_undo, name="undo"),
    path("<int:pk>/redo/", views.encounter_redo, name="redo"),
    path("<int:pk>/clock/", views.encounter_clock, name="clock"),
    path("<int:pk>/turns/", views.encounter_turns, name="turns"),
    path("<int:pk>/delete/", views.encounter_delete, name="delete"),
    path("<int:pk>/combatants/", views.combatant_add, name="combatant_add"),
    path("<int:pk>/combatants/<int:cid>/", views.combatant_edit, name="combatant_edit"),
    path("<int:pk>/combatants/<int:cid>/adjust/", views.combatant_adjust, name="combatant_adjust"),
    path("<int:pk>/combatants/<int:cid>/remove/", views.combatant_remove, name="combatant_remove"),
    path("<int:pk>/combatants/<int:cid>/conditions/", condition_views.condition_put, name="condition_put"),
    path("<int:pk>/combatants/<int:cid>/conditions/lift/", condition_views.condition_lift, name="condition_lift"),
    path("<int:pk>/log.md", views.log_markdown, name="log_markdown"),
    path("<int:pk>/log.json", views.log_json, name="log_json"),
    path("<int:pk>/export.json", views.encounter_export, name="export"),
    path("<int:pk>/players/", player_views.player_link_create, name="player_link"),
    path("<int:pk>/players/revoke/", player_views.player_link_revoke, name="player_revoke"),
    path("<int:pk>/players/visibility/", player_views.player_visibility, name="player_visibility"),
]
