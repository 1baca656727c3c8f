from decimal import Decimal

from rest_framework import serializers

from ludotheque.money import MoneySerializerField

from .models import Booking, Event
from .services import MAX_PEOPLE


class EventSerializer(serializers.ModelSerializer):
    places_left = serializers.SerializerMethodField()
    price = MoneySerializerField(required=False, min_value=Decimal(0))

    class Meta:
        model = Event
        fields = [
            "id",
            "title",
            "description",
            "location",
            "starts_at",
            "ends_at",
            "places",
            "places_left",
            "age_min",
            "age_max",
            "price",
            "price_basis",
            "members_only",
            "cancellation_hours",
            "games",
            "cancelled_at",
        ]
        read_only_fields = ["cancelled_at"]

    def get_places_left(self, event: Event) -> int | None:
        return event.places_left()

    def validate(self, data: dict) -> dict:
        starts_at = data.get("starts_at", getattr(self.instance, "starts_at", None))
        ends_at = data.get("ends_at", getattr(self.instance, "ends_at", None))
        if starts_at and ends_at and ends_at <= starts_at:
            raise serializers.ValidationError({"ends_at": Event._meta.constraints[0].violation_error_message})
        age_min = data.get("age_min", getattr(self.instance, "age_min", None))
        age_max = data.get("age_max", getattr(self.instance, "age_max", None))
        if age_min is not None and age_max is not None and age_min > age_max:
            raise serializers.ValidationError({"age_max": Event._meta.constraints[2].violation_error_message})
        if data.get("places") == 0:
            raise serializers.ValidationError({"places": Event._meta.constraints[1].violation_error_message})
        return data


class BookingSerializer(serializers.ModelSerializer):
    children = serializers.IntegerField(min_value=0, max_value=MAX_PEOPLE, default=0)
    adults = serializers.IntegerField(min_value=0, max_value=MAX_PEOPLE, default=1)
    charge_amount = serializers.DecimalField(
        source="charge.amount", max_digits=9, decimal_places=2, read_only=True, allow_null=True
    )

    class Meta:
        model = Booking
        fields = [
            "id",
            "event",
            "member",
            "name",
            "contact",
            "children",
            "adults",
            "walk_in",
            "status",
            "attendance",
            "created_at",
            "promoted_at",
            "cancelled_at",
            "charge",
            "charge_amount",
        ]
        read_only_fields = ["status", "attendance", "created_at", "promoted_at", "cancelled_at", "charge"]
        validators = []  # the one-booking-per-family rule is the service's, with its message


class AttendanceSerializer(serializers.Serializer):
    attendance = serializers.ChoiceField(choices=["", *Booking.Attendance.values], allow_blank=True)
