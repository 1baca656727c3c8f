"""The offline desk's sentences, translated on the server and handed to static/js/tour.js in the page
(`json_script`): the script has no catalogue of its own. Placeholders are `%(name)s`."""

from django.utils.translation import gettext as _


def tour_texts() -> dict[str, str]:
    return {
        "online": _("En ligne"),
        "offline": _(
            "Hors ligne : les actions sont enregistrées sur cet appareil et seront envoyées au retour du réseau."
        ),
        "no_tour": _("Aucune tournée préparée sur cet appareil."),
        "prepared": _(
            "Tournée : %(site)s, préparée le %(date)s (%(age)s). Familles : %(families)s ; jeux à bord : %(copies)s."
        ),
        "expired": _(
            "Les données de la tournée avaient plus de %(days)s jours : elles ont été effacées de cet appareil."
        ),
        "preparing": _("Préparation de la tournée…"),
        "prepare_failed": _("Impossible de préparer la tournée sans réseau : reconnectez-vous d'abord."),
        "unknown_code": _("« %(code)s » n'est ni une carte ni un jeu de la tournée préparée."),
        "family": _("%(family)s (carte %(card)s). Jeux encore permis : %(left)s."),
        "membership_ended": _("L'adhésion de %(family)s n'est pas valable aujourd'hui : pas de prêt."),
        "late_refused": _("%(family)s a un jeu en retard : pas de nouveau prêt avec son adhésion."),
        "late_warned": _("Attention : %(family)s a un jeu en retard."),
        "quota_reached": _("%(family)s a déjà son maximum de jeux en prêt."),
        "not_lendable": _("« %(game)s » (%(barcode)s) ne peut pas être prêté : %(status)s."),
        "set_aside": _("« %(game)s » (%(barcode)s) est mis de côté pour une autre famille."),
        "scan_card_first": _(
            "« %(game)s » (%(barcode)s) n'est pas en prêt : scannez d'abord la carte d'une famille pour le prêter."
        ),
        "lent": _("« %(game)s » (%(barcode)s) prêté à %(family)s."),
        "kind_quota_reached": _(
            "%(family)s a déjà le maximum de jeux de type « %(kind)s » en prêt (%(quota)s par famille)."
        ),
        "deposit_asked": _(
            "« %(game)s » (%(barcode)s) est de type « %(kind)s » : une caution de %(amount)s est demandée. "
            "Comment %(family)s la verse-t-elle ?"
        ),
        "cheque_number_needed": _("Indiquez le numéro du chèque."),
        "lent_deposit": _(
            "« %(game)s » (%(barcode)s) prêté à %(family)s, caution de %(amount)s reçue (%(method)s)."
        ),
        "returned": _("« %(game)s » (%(barcode)s) rendu."),
        "returned_missing": _("« %(game)s » (%(barcode)s) rendu, pièces manquantes notées."),
        "deposit_give_back": _("Rendez à la famille sa caution de %(amount)s."),
        "visit": _("Visite comptée : %(who)s (enfants : %(children)s, adultes : %(adults)s)."),
        "visit_nobody": _("Indiquez combien d'enfants et d'adultes sont venus."),
        "non_member": _("famille non adhérente"),
        "pending": _("hors ligne — à envoyer"),
        "sending": _("Envoi des actions de la tournée…"),
        "sent": _("Actions envoyées : %(count)s."),
        "login_needed": _("Reconnectez-vous pour envoyer les actions de la tournée."),
        "send_failed": _("Envoi refusé : %(reason)s"),
        "conflicts": _("Conflits à régler : %(count)s."),
        "lend_action": _("Prêt de « %(game)s » (%(barcode)s) à %(family)s"),
        "return_action": _("Retour de « %(game)s » (%(barcode)s)"),
        "visit_action": _("Visite : %(who)s, %(children)s + %(adults)s"),
    }
